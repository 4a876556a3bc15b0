// The plot's scales (plot_scale.h): one outlier among steady values does not flatten the robust
// scale, and is counted as above it; the plain scale holds every value.
#include "plot_scale.h"

#include <math.h>
#include <stdio.h>

static int failures = 0;

static void expect(int condition, const char *what)
{
    if (!condition) {
        printf("FAIL: %s\n", what);
        ++failures;
    }
}

static void test_nice_ceiling(void)
{
    expect(plot_nice_ceiling(0.0) == 1.0, "nothing above 0: a scale to 1");
    expect(plot_nice_ceiling(0.013) == 0.02, "0.013 rounds up to 0.02");
    expect(plot_nice_ceiling(3.0) == 5.0, "3 rounds up to 5");
    expect(plot_nice_ceiling(50.0) == 50.0, "50 stays");
    expect(plot_nice_ceiling(51.0) == 100.0, "51 rounds up to 100");
}

// 600 steps of about 0.02 ms (collision times), one of 4 ms: the system took the core away once.
static void test_one_outlier_leaves_the_robust_scale(void)
{
    double values[601];
    for (int i = 0; i < 600; ++i) values[i] = 0.018 + 0.004 * (i % 7) / 6.0;
    values[600] = 4.0;
    uint32_t above = 0;
    double top = plot_scale_top(values, 601, true, &above);
    expect(top == 0.05, "the robust scale tops the steady steps (0.022 ms, to 0.05)");
    expect(above == 1, "the outlier is counted above the scale");
    top = plot_scale_top(values, 601, false, &above);
    expect(top == 5.0 && above == 0, "the plain scale holds the outlier");
}

// A run whose values grow (a pile landing) keeps its largest on the robust scale: it is no outlier.
static void test_a_steady_rise_stays_on_the_scale(void)
{
    double values[300];
    for (int i = 0; i < 300; ++i) values[i] = 0.1 + 0.01 * i;
    uint32_t above = 1;
    double top = plot_scale_top(values, 300, true, &above);
    expect(top == 5.0 && above == 0, "a rise to 3.09 is drawn whole");
}

static void test_empty_and_non_finite(void)
{
    uint32_t above = 1;
    expect(plot_scale_top(NULL, 0, true, &above) == 1.0 && above == 0, "no values: a scale to 1");
    double values[3] = {NAN, 2.0, INFINITY};
    expect(plot_scale_top(values, 3, true, &above) == 2.0 && above == 0, "non-finite values are ignored");
}

int main(void)
{
    test_nice_ceiling();
    test_one_outlier_leaves_the_robust_scale();
    test_a_steady_rise_stays_on_the_scale();
    test_empty_and_non_finite();
    if (failures == 0) printf("ok\n");
    return failures == 0 ? 0 : 1;
}
