/* sacreBLEU 2.6.0's BLEU.compute_bleu for one row of counts, in C: included by _clipcount.c,
 * whose bleu_rows scores many rows (sentence scores, resamples) and whose Index.bleu_one counts
 * a hypothesis and scores it in one call.
 *
 * The reference is Python: the brevity penalty of evalfw/metrics/bleu/families/brevity.py and
 * the smoothing and mean of evalfw/metrics/bleu/families/sacrebleu.py (their "sacrebleu"
 * formula, smoothings "none", "floor", "add-k" with an integer k, "exp", uniform weights).
 * This formula is bit-identical to it because every step is the same IEEE double operation in
 * the same order:
 *   - counts, k and lengths are Python ints below 2**53 (the callers check), so Python's
 *     int / int true division and float * int convert them exactly to double first, as the
 *     casts here do, and int + int (add-k) stays exact;
 *   - math.log and math.exp call the C library's log and exp for the arguments met here
 *     (positive precisions, finite exponents);
 *   - the sum of the logs is the built-in sum() of a list of floats and ints (the log of a
 *     zero precision is the int -9999999999), reproduced by py_sum below for the Python this
 *     is compiled for;
 *   - no multiply-add pair exists for a compiler to fuse (and setup.py forbids fusing). */
#ifndef EVALFW_SACREBLEU_FORMULA_H
#define EVALFW_SACREBLEU_FORMULA_H

#include <math.h>
#include <stdint.h>

/* py_sum reproduces the built-in sum() of CPython 3.10 to 3.13 (3.14 also compensates the ints
 * it adds among floats): elsewhere the kernel is built without bleu_rows and bleu_one, and the
 * Python reference scores every row. */
#define SACREBLEU_FORMULA (PY_VERSION_HEX < 0x030E0000)
#if SACREBLEU_FORMULA

/* sacreBLEU's log of a zero precision (utils.my_log): a Python int */
#define SACREBLEU_LOG_ZERO INT64_C(-9999999999)

/* counts, lengths and k stay below this in magnitude: doubles hold them exactly */
#define FORMULA_LIMIT (INT64_C(1) << 53)

/* the smoothing methods, as bleu_rows and bleu_one number them */
enum { SMOOTH_NONE = 0, SMOOTH_FLOOR = 1, SMOOTH_ADD_K = 2, SMOOTH_EXP = 3 };

/* Python's sum(logs) with the default start 0, where logs[i] is the int SACREBLEU_LOG_ZERO
 * when prec[i] == 0.0 and the float log(prec[i]) otherwise (CPython's builtin_sum_impl):
 * ints are added as ints while no float has come; the first float is added to that int as
 * int + float; then the float loop. Up to Python 3.11 it adds left to right; from 3.12 on it
 * adds floats with Neumaier's compensation, ints plainly (as doubles), and adds the
 * compensation at the end when it is non-zero and finite. A sum of ints only is exact, so
 * its double is what Python's int / int divides. */
static double py_sum(const double *prec, int n) {
    int64_t int_sum = 0;
    int i = 0;
    for (; i < n && prec[i] == 0.0; i++) int_sum += SACREBLEU_LOG_ZERO;
    if (i == n) return (double)int_sum;
    double f = (double)int_sum + log(prec[i++]);
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (; i < n; i++) {
        if (prec[i] == 0.0) {
            f += (double)SACREBLEU_LOG_ZERO;
            continue;
        }
        double x = log(prec[i]);
        double t = f + x;
        if (fabs(f) >= fabs(x))
            c += (f - t) + x;
        else
            c += (x - t) + f;
        f = t;
    }
    if (c != 0.0 && isfinite(c)) f += c;
#else
    for (; i < n; i++) f += prec[i] == 0.0 ? (double)SACREBLEU_LOG_ZERO : log(prec[i]);
#endif
    return f;
}

/* The score of one row from its counts correct[0..N) and total[0..N), which add-k changes in
 * place into the counts sacreBLEU reports; writes the precisions prec[0..N) (0.0 where
 * sacreBLEU leaves 0.0) and the brevity penalty. ``value`` is floor's value, ``k`` add-k's. */
static double sacrebleu_score(int64_t *correct, int64_t *total, int N, int64_t sys_len,
                              int64_t ref_len, int effective_order, int smoothing, double value,
                              int64_t k, double *prec, double *bp_out) {
    double bp = 1.0;
    if (sys_len < ref_len)
        bp = sys_len > 0 ? exp(1 - (double)ref_len / (double)sys_len) : 0.0;
    *bp_out = bp;
    int any = 0;
    for (int n = 0; n < N; n++) {
        prec[n] = 0.0;
        any |= correct[n] != 0;
    }
    if (!any) return 0.0;   /* no match at all: BLEU 0, counts untouched (sacreBLEU #141) */
    double smooth_mteval = 1.0;
    for (int n = 0; n < N; n++) {
        if (smoothing == SMOOTH_ADD_K && n > 0) {
            correct[n] += k;
            total[n] += k;
        }
        if (total[n] == 0) break;   /* no n-grams of this order: later orders stay 0 */
        if (correct[n] != 0)
            prec[n] = 100. * (double)correct[n] / (double)total[n];
        else if (smoothing == SMOOTH_FLOOR)
            prec[n] = 100. * value / (double)total[n];
        else if (smoothing == SMOOTH_EXP) {
            smooth_mteval *= 2;
            prec[n] = 100. / (smooth_mteval * (double)total[n]);
        }
    }
    int eff_order = N;
    if (effective_order) {   /* the leading orders with n-grams, if any */
        int reached = 0;
        while (reached < N && total[reached] != 0) reached++;
        if (reached) eff_order = reached;
    }
    return bp * exp(py_sum(prec, eff_order) / (double)eff_order);
}

#endif
#endif
