/*
 * version.c: the version string; the only file compiled with HIVEBRIDGE_VERSION, so
 * a new version rebuilds this one object.
 */
#include "bridge/version.h"

#ifndef HIVEBRIDGE_VERSION
#error "HIVEBRIDGE_VERSION comes from the build (GNUmakefile)"
#endif

const char version_string[] = HIVEBRIDGE_VERSION;
