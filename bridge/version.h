/*
 * version.h: the version of this build, which the build passes in (GNUmakefile:
 * `git describe` of a tagged clone, else the VERSION file).
 */
#ifndef BRIDGE_VERSION_H
#define BRIDGE_VERSION_H

/* "0.1.0": what --version prints and each protocol's identification carries. */
extern const char version_string[];

#endif
