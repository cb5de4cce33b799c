/* The bench signature: the node counts of `octuple --bench` with the shipped network.
 *
 * Every search is deterministic on one thread with a cleared table, so these counts change
 * only when the search's behaviour changes (ordering, pruning, ProbCut, the solver, the
 * transposition table) or the default network or its .mpc file does. Such a change must be
 * deliberate: when a commit changes search behaviour or the shipped weights, run
 * `src/octuple --bench`, and update the numbers below (and the full total) in that same
 * commit, saying so in its message. A commit that changes neither must leave them alone.
 *
 * The last position (an exact solve at 22 empties, about 100 million nodes and 6 s) is too
 * slow for `make check`, above all under the sanitizers; the test searches the first seven,
 * which take the midgame search with the network and Multi-ProbCut and the solver. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bench.h"
#include "core/search.h"
#include "core/weights.h"
#include "engine/settings.h"
#include "testutil.h"

/* Today's `src/octuple --bench` with weights/octuple.ow (and weights/octuple.mpc) at the
 * default table size: 107,618,134 nodes in all, position 8 counting 101,101,321. */
enum { BENCH_FULL_TOTAL = 107618134 };
static const unsigned long long bench_signature[BENCH_POSITIONS - 1] = {
    71710, 415663, 148530, 59217, 184423, 641515, 4995755,
};
static const unsigned long long bench_last_position = 101101321;

START_TEST(test_bench_signature)
{
    Model *model = NULL;
    OctError error;
    ck_assert_msg(model_load(test_source_path("weights/octuple.ow"), &model, &error), "%s",
                  error.message);
    Search search;
    ck_assert_msg(search_init(&search, SETTINGS_DEFAULT_HASH, &error), "%s", error.message);
    search_set_model(&search, model);
    FILE *out = tmpfile();
    ck_assert_ptr_nonnull(out);
    BenchTotals totals;
    bench_run(&search, BENCH_POSITIONS - 1, out, &totals);
    fclose(out);
    search_free(&search);
    model_free(model);
    unsigned long long sum = 0;
    for (int i = 0; i < BENCH_POSITIONS - 1; ++i) {
        ck_assert_msg(totals.position_nodes[i] == bench_signature[i],
                      "bench position %d: %llu nodes, the signature says %llu (a deliberate "
                      "change updates tests/check_bench.c in the same commit)",
                      i + 1, (unsigned long long)totals.position_nodes[i], bench_signature[i]);
        sum += bench_signature[i];
    }
    ck_assert_uint_eq(totals.nodes, sum);
    ck_assert_uint_eq(totals.position_nodes[BENCH_POSITIONS - 1], 0);
    /* the documented full count is the sum of its rows */
    ck_assert_uint_eq(sum + bench_last_position, BENCH_FULL_TOTAL);
}
END_TEST

static Suite *bench_suite(void)
{
    Suite *suite = suite_create("bench");
    TCase *signature = tcase_create("signature");
    tcase_set_timeout(signature, 300);
    tcase_add_test(signature, test_bench_signature);
    suite_add_tcase(suite, signature);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(bench_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
