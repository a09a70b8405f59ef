/* Compiled loops of the meta-evaluation (optional; evalfw/analysis/meta/_kernel.py holds the
 * numpy twins, which do the same arithmetic in the same order: the tests compare the bits).
 *
 * - all_pairs, collect, band: passes over every pair (i < j) of judged items sorted by metric
 *   score, for the ungrouped segment-level statistics (evalfw/analysis/meta/ungrouped.py);
 * - sweep_max: acc_eq's tie threshold searched again on each bootstrap resample of the
 *   statistics grouped by item (evalfw/analysis/meta/grouped.py);
 * - mixed_grouped: tau-b, tau-c and acc_eq grouped by item of both mixed metrics of every
 *   permutation trial (evalfw/analysis/meta/permute.py).
 *
 * Arrays come as buffers (numpy arrays, C order) with the dtypes the Python side gives them;
 * outputs are written into buffers it allocated. Counts are int64; a value is computed from
 * counts with the operations, in the order, of the numpy code. Built without FP contraction.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* A buffer of `count` items of `size` bytes (count < 0: any multiple of size). */
static int check(Py_buffer *b, Py_ssize_t size, Py_ssize_t count, const char *name) {
    if (b->len % size != 0 || (count >= 0 && b->len != size * count)) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd items of %zd bytes", name,
                     b->len, count, size);
        return -1;
    }
    return 0;
}

static inline uint64_t key_of(double dx, int shift) {
    double a = fabs(dx);
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    return bits >> shift;
}

/* all_pairs(x, y, seg, segments, shift, totals, gain, rise, count, matrices) */
static PyObject *all_pairs(PyObject *self, PyObject *args) {
    Py_buffer x, y, seg, tot, gain, rise, count, mats;
    Py_ssize_t segments;
    int shift;
    if (!PyArg_ParseTuple(args, "y*y*y*niw*w*w*w*w*", &x, &y, &seg, &segments, &shift, &tot,
                          &gain, &rise, &count, &mats))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = x.len / 8, nb = gain.len / 8;
    int with_mats = mats.len > 0;
    if (check(&x, 8, -1, "x") || check(&y, 8, n, "y") || check(&seg, 8, n, "seg") ||
        check(&tot, 8, 6, "totals") || check(&rise, 8, nb, "rise") ||
        check(&count, 8, nb, "count") ||
        (with_mats && check(&mats, 8, 4 * segments * segments, "matrices")) ||
        shift < 0 || shift > 63)
        goto done;
    const double *xs = x.buf, *ys = y.buf;
    const int64_t *sg = seg.buf;
    int64_t *t = tot.buf, *g = gain.buf, *rs = rise.buf, *cn = count.buf, *m = mats.buf;
    Py_ssize_t size = segments * segments;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n - 1 && !bad; i++) {
        double xi = xs[i], yi = ys[i];
        int64_t si = sg[i];
        for (Py_ssize_t j = i + 1; j < n; j++) {
            double dx = xs[j] - xi, dy = ys[j] - yi;
            int xt = dx == 0, yt = dy == 0;
            int con = dx > 0 && dy > 0, dis = dx > 0 && dy < 0;
            int gn = yt - con;
            t[0] += con; t[1] += dis; t[2] += xt; t[3] += yt; t[4] += xt & yt;
            if (xt) t[5] += gn;
            uint64_t k = key_of(dx, shift);
            if (k >= (uint64_t)nb) { bad = 1; break; }
            g[k] += gn; rs[k] += yt; cn[k] += 1;
            if (with_mats) {
                int64_t sj = sg[j];
                Py_ssize_t at = si < sj ? si * segments + sj : sj * segments + si;
                m[at] += con - dis; m[size + at] += xt; m[2 * size + at] += yt;
                m[3 * size + at] += xt & yt;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "a difference falls beyond the last bucket");
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&x); PyBuffer_Release(&y); PyBuffer_Release(&seg); PyBuffer_Release(&tot);
    PyBuffer_Release(&gain); PyBuffer_Release(&rise); PyBuffer_Release(&count);
    PyBuffer_Release(&mats);
    return result;
}

/* collect(x, y, shift, candidates, diff, gain) -> pairs written, in pass order */
static PyObject *collect(PyObject *self, PyObject *args) {
    Py_buffer x, y, cand, diff, gain;
    int shift;
    if (!PyArg_ParseTuple(args, "y*y*iy*w*w*", &x, &y, &shift, &cand, &diff, &gain))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = x.len / 8, nb = cand.len, cap = diff.len / 8, at = 0;
    if (check(&x, 8, -1, "x") || check(&y, 8, n, "y") || check(&gain, 8, cap, "gain"))
        goto done;
    const double *xs = x.buf, *ys = y.buf;
    const uint8_t *c = cand.buf;
    double *d = diff.buf;
    int64_t *g = gain.buf;
    int full = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n - 1 && !full; i++) {
        for (Py_ssize_t j = i + 1; j < n; j++) {
            double dx = xs[j] - xs[i], dy = ys[j] - ys[i];
            uint64_t k = key_of(dx, shift);
            if (k < (uint64_t)nb && c[k]) {
                if (at == cap) { full = 1; break; }
                d[at] = dx;
                g[at] = (int64_t)(dy == 0) - (int64_t)(dx > 0 && dy > 0);
                at++;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (full) {
        PyErr_SetString(PyExc_ValueError, "more candidate pairs than room for them");
        goto done;
    }
    result = PyLong_FromSsize_t(at);
done:
    PyBuffer_Release(&x); PyBuffer_Release(&y); PyBuffer_Release(&cand);
    PyBuffer_Release(&diff); PyBuffer_Release(&gain);
    return result;
}

/* band(x, y, seg, segments, epsilon, con, tied): per segment pair, pairs with difference at
 * most epsilon that are concordant / tied in y (x sorted: a row stops at the first beyond) */
static PyObject *band(PyObject *self, PyObject *args) {
    Py_buffer x, y, seg, con, tied;
    Py_ssize_t segments;
    double eps;
    if (!PyArg_ParseTuple(args, "y*y*y*ndw*w*", &x, &y, &seg, &segments, &eps, &con, &tied))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = x.len / 8;
    if (check(&x, 8, -1, "x") || check(&y, 8, n, "y") || check(&seg, 8, n, "seg") ||
        check(&con, 8, segments * segments, "con") ||
        check(&tied, 8, segments * segments, "tied"))
        goto done;
    const double *xs = x.buf, *ys = y.buf;
    const int64_t *sg = seg.buf;
    int64_t *c = con.buf, *t = tied.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n - 1; i++) {
        for (Py_ssize_t j = i + 1; j < n; j++) {
            double dx = xs[j] - xs[i], dy = ys[j] - ys[i];
            if (!(dx <= eps)) break;
            int64_t si = sg[i], sj = sg[j];
            Py_ssize_t at = si < sj ? si * segments + sj : sj * segments + si;
            c[at] += dx > 0 && dy > 0;
            t[at] += dy == 0;
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&x); PyBuffer_Release(&y); PyBuffer_Release(&seg);
    PyBuffer_Release(&con); PyBuffer_Release(&tied);
    return result;
}

/* acc_eq from the agreeing pairs per group of segments with `den[k]` pairs each */
static inline double acc_value(const int64_t *num, const double *den, Py_ssize_t groups,
                               double used) {
    double v = 0.0;
    for (Py_ssize_t k = 0; k < groups; k++) v = v + (double)num[k] / den[k];
    return v / used;
}

/* The best of the values at the ends of runs. With `mult` (mult[k] = L / den[k] for a
 * common multiple L of the denominators) the integer score sum_k num[k] * mult[k] is
 * proportional to the value, so a run end only compares scores and copies the numerators of
 * a better one; values are computed (as acc_value) only where two run ends have the same
 * score (different numerators may round differently: the larger wins, as a max over all
 * values picks) and once at the end. Without `mult` every value is computed. */
typedef struct {
    const int64_t *mult;
    int64_t best_score;
    double best;     /* valid when `valued` */
    int any, valued;
    int64_t *num;    /* the best numerators (with mult) */
} Best;

static inline void offer(Best *b, int64_t score, const int64_t *num, const double *den,
                         Py_ssize_t groups, double used) {
    if (!b->mult) {
        double v = acc_value(num, den, groups, used);
        if (!b->any || v > b->best) b->best = v;
        b->any = b->valued = 1;
        return;
    }
    if (b->any && score < b->best_score) return;
    if (!b->any || score > b->best_score) {
        b->best_score = score;
        memcpy(b->num, num, (size_t)groups * sizeof(int64_t));
        b->any = 1;
        b->valued = 0;
        return;
    }
    if (groups == 1 || memcmp(b->num, num, (size_t)groups * sizeof(int64_t)) == 0) return;
    if (!b->valued) { b->best = acc_value(b->num, den, groups, used); b->valued = 1; }
    double v = acc_value(num, den, groups, used);
    if (v > b->best) {
        b->best = v;
        memcpy(b->num, num, (size_t)groups * sizeof(int64_t));
    }
}

static inline double best_value(Best *b, const double *den, Py_ssize_t groups, double used) {
    if (!b->valued) { b->best = acc_value(b->num, den, groups, used); b->valued = 1; }
    return b->best;
}

/* sweep_max(gain, row, ends, starts_at_zero, group, den, mult, base, weights, used, out) */
static PyObject *sweep_max(PyObject *self, PyObject *args) {
    Py_buffer gain, row, ends, group, den, mult, base, weights, used, out;
    int zero;
    if (!PyArg_ParseTuple(args, "y*y*y*iy*y*y*y*y*y*w*", &gain, &row, &ends, &zero, &group,
                          &den, &mult, &base, &weights, &used, &out))
        return NULL;
    PyObject *result = NULL;
    int64_t *num = NULL, *bnum = NULL;
    Py_ssize_t p = gain.len / 8, e = ends.len / 8, r = group.len / 8, k = den.len / 8,
               b = used.len / 8;
    if (check(&gain, 8, -1, "gain") || check(&row, 8, p, "row") || check(&ends, 8, -1, "ends") ||
        check(&group, 8, -1, "group") || check(&den, 8, -1, "den") ||
        (mult.len && check(&mult, 8, k, "mult")) ||
        check(&base, 8, r, "base") || check(&weights, 8, b * r, "weights") ||
        check(&used, 8, -1, "used") || check(&out, 8, b, "out"))
        goto done;
    num = PyMem_Calloc((size_t)(k ? k : 1), sizeof(int64_t));
    bnum = PyMem_Calloc((size_t)(k ? k : 1), sizeof(int64_t));
    if (!num || !bnum) { PyErr_NoMemory(); goto done; }
    const int64_t *gn = gain.buf, *rw = row.buf, *en = ends.buf, *gr = group.buf,
                  *bs = base.buf, *w = weights.buf;
    const double *dn = den.buf, *us = used.buf;
    const int64_t *ml = mult.len ? mult.buf : NULL;
    double *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < b; s++) {
        if (!(us[s] > 0)) continue;
        const int64_t *ws = w + s * r;
        memset(num, 0, (size_t)k * sizeof(int64_t));
        int64_t score = 0;
        for (Py_ssize_t q = 0; q < r; q++) {
            num[gr[q]] += ws[q] * bs[q];
            if (ml) score += ws[q] * bs[q] * ml[gr[q]];
        }
        Best best = {ml, 0, 0.0, 0, 0, bnum};
        if (!zero) offer(&best, score, num, dn, k, us[s]);
        Py_ssize_t at = 0;
        for (Py_ssize_t c = 0; c < p; c++) {
            int64_t step = ws[rw[c]] * gn[c];
            num[gr[rw[c]]] += step;
            if (ml) score += step * ml[gr[rw[c]]];
            if (at < e && c == en[at]) {
                offer(&best, score, num, dn, k, us[s]);
                at++;
            }
        }
        o[s] = best_value(&best, dn, k, us[s]);
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(num);
    PyMem_Free(bnum);
    PyBuffer_Release(&gain); PyBuffer_Release(&row); PyBuffer_Release(&ends);
    PyBuffer_Release(&group); PyBuffer_Release(&den); PyBuffer_Release(&mult);
    PyBuffer_Release(&base); PyBuffer_Release(&weights); PyBuffer_Release(&used);
    PyBuffer_Release(&out);
    return result;
}

/* trials of a permutation test that go through the candidates together */
#define TB 8

typedef struct {
    int64_t *con, *dis, *xt, *dupcount, *num;
    uint8_t *dup;
} Side;

/* tau-b and tau-c averaged over segments, and the starting acc_eq numerators, of one mixed
 * metric whose pair p takes option opt[p] (flip: 3 - opt[p]) */
static void side_taus(Side *sd, int flip, const uint8_t *opt, const uint8_t *status,
                      const int64_t *first, const int64_t *second, const int64_t *row,
                      Py_ssize_t p, const int64_t *items, const int64_t *pairs,
                      const int64_t *ytcount, const int64_t *yclasses, const int64_t *group,
                      Py_ssize_t r, Py_ssize_t n, Py_ssize_t groups, double *tau_b,
                      double *tau_c) {
    memset(sd->con, 0, (size_t)r * 8); memset(sd->dis, 0, (size_t)r * 8);
    memset(sd->xt, 0, (size_t)r * 8); memset(sd->dupcount, 0, (size_t)r * 8);
    memset(sd->dup, 0, (size_t)n); memset(sd->num, 0, (size_t)groups * 8);
    for (Py_ssize_t q = 0; q < p; q++) {
        int o = flip ? 3 - opt[q] : opt[q];
        uint8_t st = status[4 * q + o];
        int64_t s = row[q];
        sd->con[s] += st & 1;
        sd->dis[s] += (st >> 1) & 1;
        if (st & 4) {
            sd->xt[s] += 1;
            if (!sd->dup[second[q]]) { sd->dup[second[q]] = 1; sd->dupcount[s] += 1; }
        }
    }
    double sb = 0.0, sc = 0.0;
    Py_ssize_t nb = 0, nc = 0;
    for (Py_ssize_t s = 0; s < r; s++) {
        if (pairs[s] == 0) continue;
        sd->num[group[s]] += sd->con[s];
        double total = (double)pairs[s], xt = (double)sd->xt[s], yt = (double)ytcount[s];
        if (xt == total || yt == total) continue;
        double cd = (double)sd->con[s] - (double)sd->dis[s];
        sb = sb + cd / sqrt(total - xt) / sqrt(total - yt);
        nb++;
        double ni = (double)items[s];
        double xc = (double)(items[s] - sd->dupcount[s]), yc = (double)yclasses[s];
        double classes = xc < yc ? xc : yc;
        sc = sc + 2 * cd / (ni * ni * (classes - 1) / classes);
        nc++;
    }
    (void)first;
    *tau_b = nb ? sb / (double)nb : NAN;
    *tau_c = nc ? sc / (double)nc : NAN;
}

/* mixed_grouped(first, second, row, ytie, items, pairs, yclasses, status, cand_pair,
 *               cand_option, cand_gain, cand_group, cand_end, starts_at_zero, group, den,
 *               mult, masks, n_items, out) */
static PyObject *mixed_grouped(PyObject *self, PyObject *args) {
    Py_buffer first, second, row, ytie, items, pairs, ycl, status, cpair, copt, cgain, cgroup,
        cend, group, den, mult, masks, out;
    int zero;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*y*iy*y*y*y*nw*", &first, &second,
                          &row, &ytie, &items, &pairs, &ycl, &status, &cpair, &copt, &cgain,
                          &cgroup, &cend, &zero, &group, &den, &mult, &masks, &n, &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t p = first.len / 8, r = items.len / 8, k = den.len / 8, c4 = cpair.len / 4;
    Py_ssize_t trials = n > 0 ? masks.len / n : 0;
    Side sides[2] = {{0}, {0}};
    uint8_t *opt = NULL;
    int64_t *ytcount = NULL, *num3 = NULL, *mlx = NULL;
    uint8_t *opt8 = NULL;
    int64_t *bnums = NULL;
    if (check(&first, 8, -1, "first") || check(&second, 8, p, "second") ||
        check(&row, 8, p, "row") || check(&ytie, 1, p, "ytie") ||
        check(&items, 8, -1, "items") || check(&pairs, 8, r, "pairs") ||
        check(&ycl, 8, r, "yclasses") || check(&status, 1, 4 * p, "status") ||
        check(&cpair, 4, -1, "cand_pair") || check(&copt, 1, c4, "cand_option") ||
        check(&cgain, 1, c4, "cand_gain") || check(&cgroup, 4, c4, "cand_group") ||
        check(&cend, 1, c4, "cand_end") || check(&group, 8, r, "group") ||
        check(&den, 8, -1, "den") || (mult.len && check(&mult, 8, k, "mult")) ||
        check(&masks, 1, trials * n, "masks") ||
        check(&out, 8, trials * 6, "out"))
        goto done;
    opt = PyMem_Malloc((size_t)(p ? p : 1));
    ytcount = PyMem_Calloc((size_t)(r ? r : 1), 8);
    num3 = PyMem_Calloc((size_t)(TB * 3 * (k ? k : 1)), 8);
    opt8 = PyMem_Malloc((size_t)(p ? p : 1) * TB);
    bnums = PyMem_Calloc((size_t)(TB * 2 * (k ? k : 1)), 8);
    mlx = PyMem_Calloc((size_t)(k ? k : 1), 8);
    for (int s = 0; s < 2; s++) {
        sides[s].con = PyMem_Malloc((size_t)(r ? r : 1) * 8);
        sides[s].dis = PyMem_Malloc((size_t)(r ? r : 1) * 8);
        sides[s].xt = PyMem_Malloc((size_t)(r ? r : 1) * 8);
        sides[s].dupcount = PyMem_Malloc((size_t)(r ? r : 1) * 8);
        sides[s].num = PyMem_Malloc((size_t)(k ? k : 1) * 8);
        sides[s].dup = PyMem_Malloc((size_t)(n ? n : 1));
        if (!sides[s].con || !sides[s].dis || !sides[s].xt || !sides[s].dupcount ||
            !sides[s].num || !sides[s].dup) { PyErr_NoMemory(); goto done; }
    }
    if (!opt || !ytcount || !num3 || !mlx || !opt8 || !bnums) {
        PyErr_NoMemory();
        goto done;
    }
    const int64_t *fi = first.buf, *se = second.buf, *rw = row.buf, *it = items.buf,
                  *pr = pairs.buf, *yc = ycl.buf, *gr = group.buf;
    const int32_t *cp = cpair.buf, *cg = cgroup.buf;
    const int8_t *cgn = cgain.buf;
    const uint8_t *yt = ytie.buf, *st = status.buf, *co = copt.buf, *ce = cend.buf,
                  *mk = masks.buf;
    const double *dn = den.buf;
    const int64_t *ml = mult.len ? mult.buf : NULL;
    if (ml) memcpy(mlx, ml, (size_t)k * 8);
    double *o = out.buf;
    double used = 0;
    for (Py_ssize_t s = 0; s < r; s++) used += pr[s] > 0;
    for (Py_ssize_t q = 0; q < p; q++) ytcount[rw[q]] += yt[q];
    Py_BEGIN_ALLOW_THREADS
    /* trials go TB at a time through the candidates: each candidate is read once per block
     * and its pair's options of the block's trials sit side by side (opt8) */
    for (Py_ssize_t t0 = 0; t0 < trials; t0 += TB) {
        Py_ssize_t tb = trials - t0 < TB ? trials - t0 : TB;
        /* numerators and scores of side 0, side 1 and a sink for unselected candidates, per
         * trial of the block, so the loop has no unpredictable branch */
        int64_t score[TB][3], top[TB][2];
        Best best[TB][2];
        /* one group of segments (every segment has as many pairs): the score is the
         * numerator itself (its multiplier is 1), so it is the only count to keep */
        int single = k == 1 && ml != NULL;
        for (Py_ssize_t t = 0; t < tb; t++) {
            const uint8_t *m = mk + (t0 + t) * n;
            for (Py_ssize_t q = 0; q < p; q++) {
                opt[q] = (uint8_t)(2 * (m[fi[q]] != 0) + (m[se[q]] != 0));
                opt8[q * TB + t] = opt[q];
            }
            double *res = o + 6 * (t0 + t);
            for (int s = 0; s < 2; s++)
                side_taus(&sides[s], s, opt, st, fi, se, rw, p, it, pr, ytcount, yc, gr, r, n, k,
                          &res[s], &res[2 + s]);
            for (int s = 0; s < 3; s++) {
                int64_t *num = num3 + (t * 3 + s) * k;
                score[t][s] = 0;
                if (s == 2) { memset(num, 0, (size_t)k * 8); continue; }
                memcpy(num, sides[s].num, (size_t)k * 8);
                for (Py_ssize_t g = 0; g < k; g++) score[t][s] += num[g] * mlx[g];
                best[t][s] = (Best){ml, 0, 0.0, 0, 0, bnums + (t * 2 + s) * k};
                top[t][s] = zero ? INT64_MIN : score[t][s];
                if (!zero) offer(&best[t][s], score[t][s], num, dn, k, used);
            }
        }
        for (Py_ssize_t c = 0; c < c4; c++) {
            int op = co[c];
            const uint8_t *mine = opt8 + (Py_ssize_t)cp[c] * TB;
            int64_t g = cg[c], gain = cgn[c], step = gain * mlx[g];
            for (Py_ssize_t t = 0; t < tb; t++) {
                int s = op == mine[t] ? 0 : 2;
                s = op == 3 - mine[t] ? 1 : s;
                if (!single) num3[(t * 3 + s) * k + g] += gain;
                score[t][s] += step;
            }
            if (!ce[c]) continue;
            if (single) {  /* the value grows with the score: keep the best score */
                for (Py_ssize_t t = 0; t < tb; t++)
                    for (int s = 0; s < 2; s++)
                        top[t][s] = score[t][s] > top[t][s] ? score[t][s] : top[t][s];
                continue;
            }
            for (Py_ssize_t t = 0; t < tb; t++)
                for (int s = 0; s < 2; s++)
                    offer(&best[t][s], score[t][s], num3 + (t * 3 + s) * k, dn, k, used);
        }
        for (Py_ssize_t t = 0; t < tb; t++) {
            double *res = o + 6 * (t0 + t);
            for (int s = 0; s < 2; s++)
                res[4 + s] = !(used > 0) ? NAN
                             : single ? acc_value(&top[t][s], dn, k, used)
                                      : best_value(&best[t][s], dn, k, used);
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    for (int s = 0; s < 2; s++) {
        PyMem_Free(sides[s].con); PyMem_Free(sides[s].dis); PyMem_Free(sides[s].xt);
        PyMem_Free(sides[s].dupcount); PyMem_Free(sides[s].num); PyMem_Free(sides[s].dup);
    }
    PyMem_Free(opt); PyMem_Free(ytcount); PyMem_Free(num3); PyMem_Free(mlx); PyMem_Free(opt8);
    PyMem_Free(bnums);
    PyBuffer_Release(&first); PyBuffer_Release(&second); PyBuffer_Release(&row);
    PyBuffer_Release(&ytie); PyBuffer_Release(&items); PyBuffer_Release(&pairs);
    PyBuffer_Release(&ycl); PyBuffer_Release(&status); PyBuffer_Release(&cpair);
    PyBuffer_Release(&copt); PyBuffer_Release(&cgain); PyBuffer_Release(&cgroup);
    PyBuffer_Release(&cend); PyBuffer_Release(&group);
    PyBuffer_Release(&den); PyBuffer_Release(&mult); PyBuffer_Release(&masks);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"all_pairs", all_pairs, METH_VARARGS,
     "all_pairs(x, y, seg, segments, shift, totals, gain, rise, count, matrices)"},
    {"collect", collect, METH_VARARGS, "collect(x, y, shift, candidates, diff, gain) -> n"},
    {"band", band, METH_VARARGS, "band(x, y, seg, segments, epsilon, con, tied)"},
    {"sweep_max", sweep_max, METH_VARARGS,
     "sweep_max(gain, row, ends, starts_at_zero, group, den, mult, base, weights, used, out)"},
    {"mixed_grouped", mixed_grouped, METH_VARARGS,
     "mixed_grouped(first, second, row, ytie, items, pairs, yclasses, status, cand_pair, "
     "cand_option, cand_gain, cand_group, cand_end, starts_at_zero, group, den, mult, masks, "
     "n_items, out)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_metakernel",
                                    "Compiled loops of the meta-evaluation.", -1, methods};

PyMODINIT_FUNC PyInit__metakernel(void) { return PyModule_Create(&module); }
