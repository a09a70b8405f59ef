/* sacreBLEU 2.6.0's BLEU.compute_bleu for one segment, in C, for the per-call drop-in
 * (evalfw/compat/_sentence.py): included by _clipcount.c, whose Index.bleu_one counts a
 * hypothesis and scores it in one call.
 *
 * Bit-identical to the Python formula (sacrebleu/metrics/bleu.py, and evalfw's copy
 * evalfw/compat/_bleu_lean.py:bleu_fields) because every step is the same IEEE double
 * operation in the same order:
 *   - counts, totals and lengths are Python ints far below 2**53, so Python's int / int true
 *     division and float * int convert them exactly to double first, as the casts here do;
 *   - math.log and math.exp call the C library's log and exp for the arguments met here
 *     (positive precisions, finite exponents);
 *   - sum() of the logs: Python 3.11 adds floats left to right in a double starting from 0,
 *     and adds an int (sacreBLEU's log of a zero precision, -9999999999) as its exact double.
 *     Python 3.12 sums floats with compensation, so the caller compiles this only for
 *     older Pythons (see SACREBLEU_FORMULA) and the Python formula runs elsewhere;
 *   - no multiply-add pair exists for a compiler to fuse (each product is divided or
 *     exponentiated, never added to).
 * Only the smoothing methods without a value are here: "exp" and "none". "floor" and "add-k"
 * stay in Python (add-k turns the counts into floats in place). */
#ifndef EVALFW_SACREBLEU_FORMULA_H
#define EVALFW_SACREBLEU_FORMULA_H

#include <math.h>
#include <stdint.h>

#if PY_VERSION_HEX < 0x030C0000
#define SACREBLEU_FORMULA 1
#else
#define SACREBLEU_FORMULA 0
#endif

/* sacreBLEU's log of a zero precision (utils.my_log) */
#define SACREBLEU_LOG_ZERO (-9999999999.0)

/* The score of one segment from its counts ``correct[0..N)`` and ``total[0..N)``; writes the
 * precisions (``prec[0..N)``, 0.0 where sacreBLEU leaves 0.0) and the brevity penalty. */
static double sacrebleu_score(const int64_t *correct, const int64_t *total, int N,
                              int64_t sys_len, int64_t ref_len, int effective_order,
                              int exp_smoothing, double *prec, double *bp_out) {
    double bp = 1.0;
    if (sys_len < ref_len)
        bp = sys_len > 0 ? exp(1 - (double)ref_len / (double)sys_len) : 0.0;
    *bp_out = bp;
    int any = 0;
    for (int n = 0; n < N; n++) {
        prec[n] = 0.0;
        any |= correct[n] != 0;
    }
    if (!any) return 0.0;   /* no match at all: BLEU 0 (sacreBLEU #141) */
    double smooth_mteval = 1.0;
    int eff_order = N;
    for (int n = 0; n < N; n++) {
        if (total[n] == 0) break;
        if (effective_order) eff_order = n + 1;
        if (correct[n] == 0) {
            if (exp_smoothing) {
                smooth_mteval *= 2;
                prec[n] = 100. / (smooth_mteval * (double)total[n]);
            }
        } else {
            prec[n] = 100. * (double)correct[n] / (double)total[n];
        }
    }
    double sum = 0.0;
    for (int n = 0; n < eff_order; n++)
        sum += prec[n] == 0.0 ? SACREBLEU_LOG_ZERO : log(prec[n]);
    return bp * exp(sum / (double)eff_order);
}

#endif
