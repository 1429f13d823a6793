/*
 * test_hash_budget.c: the process-wide hash-table budget (bridge/hash_budget.h): a
 * table that fits is taken whole; one that does not first takes back the tables of
 * idle holders, least recently used first (touching a table makes it the last to
 * go), never a busy holder's nor its own; then it is halved down to the minimum, and
 * with less than that left nothing is taken; giving back frees the MB.
 */
#include "tests/unit/testutil.h"
#include "bridge/hash_budget.h"
#include "tests/unit/unit.h"

struct holder {
	struct hash_budget_entry e;     /* first */
	int busy;
	int taken;                      /* times its table was taken back */
};

static int holder_idle(struct hash_budget_entry *e)
{
	return !((struct holder *)e)->busy;
}

static void holder_taken(struct hash_budget_entry *e)
{
	((struct holder *)e)->taken++;
}

static void holder_init(struct holder *h)
{
	memset(h, 0, sizeof *h);
	h->e.idle = holder_idle;
	h->e.taken = holder_taken;
}

/* Takes want MB for h and, when it got some, holds them as a mapped table would. */
static size_t take(struct holder *h, size_t want)
{
	size_t mb = hash_budget_take(&h->e, want, 1);
	if (mb)
		hash_budget_hold(&h->e);
	return mb;
}

static void test_take_reclaim(void)
{
	struct holder a, b, c, d;

	holder_init(&a);
	holder_init(&b);
	holder_init(&c);
	holder_init(&d);
	hash_budget_configure(10, 0);
	CU_ASSERT_EQUAL(hash_budget_figures().total_mb, 10);
	CU_ASSERT_EQUAL(take(&a, 4), 4);
	CU_ASSERT_EQUAL(take(&b, 4), 4);
	CU_ASSERT_EQUAL(hash_budget_figures().used_mb, 8);

	/* a is the least recently used, but touched it is the last: b goes. */
	hash_budget_touch(&a.e);
	CU_ASSERT_EQUAL(take(&c, 4), 4);
	CU_ASSERT_EQUAL(b.taken, 1);
	CU_ASSERT_EQUAL(a.taken, 0);
	CU_ASSERT_EQUAL(b.e.mb, 0);
	CU_ASSERT_EQUAL(hash_budget_figures().used_mb, 8);

	/* Busy holders keep theirs: d gets the largest half that fits. */
	a.busy = c.busy = 1;
	CU_ASSERT_EQUAL(take(&d, 8), 2);
	CU_ASSERT_EQUAL(a.taken + c.taken, 0);
	CU_ASSERT_EQUAL(hash_budget_figures().used_mb, 10);

	/* Nothing left and nobody idle but the taker itself: none. */
	hash_budget_give(&d.e);
	CU_ASSERT_EQUAL(hash_budget_figures().used_mb, 8);
	CU_ASSERT_EQUAL(take(&b, 4), 2);
	d.busy = 1;
	b.busy = 1;
	CU_ASSERT_EQUAL(hash_budget_take(&d.e, 1, 1), 0);
	CU_ASSERT_EQUAL(d.e.mb, 0);

	/* An idle holder is taken back for it, the oldest first (a, touched before c). */
	a.busy = 0;
	c.busy = 0;
	CU_ASSERT_EQUAL(take(&d, 4), 4);
	CU_ASSERT_EQUAL(a.taken, 1);
	CU_ASSERT_EQUAL(c.taken, 0);

	hash_budget_give(&b.e);
	hash_budget_give(&c.e);
	hash_budget_give(&d.e);
	hash_budget_give(&a.e);     /* holds none: nothing */
	CU_ASSERT_EQUAL(hash_budget_figures().used_mb, 0);
	hash_budget_configure(0, 7);
	CU_ASSERT_EQUAL(hash_budget_figures().total_mb, 512);
	CU_ASSERT_EQUAL(hash_budget_figures().idle_s, 7);
}

static const struct unit_test tests[] = {
	{ "take, reclaim, halve, give", test_take_reclaim },
	{ NULL, NULL }
};

const struct unit_suite unit_suite = {
	.name = "hash_budget",
	.tests = tests,
};
