// Square root of the pivot at the fragment's own position (Kernel 3).
// A pivot that is not positive (or is NaN) is written unchanged, so the breakdown check finds it
// on the diagonal with its value.
// TINY_PIVOT (interior-point normal equations): a pivot at or below tiny * C(k, k) — rounding
// noise in single precision, from dependent rows or vanishing weights — is replaced by a huge
// one (L(k, k) = 1e15), which removes that row from the system; C(k, k) is read from the
// gathered original diagonal S1 at entry `pivot`. NaN still stays NaN.
uniform samplerRECT S0;
#ifdef TINY_PIVOT
uniform samplerRECT S1;
uniform float tiny;
uniform float pivot;
#endif
out float result;

void main() {
    float v = texRECT(S0, gl_FragCoord.xy).r;
#ifdef TINY_PIVOT
    float original = texRECT(S1, vec2(pivot + 0.5, 0.5)).r;
    if (!isnan(v) && v <= tiny * original) {
        result = 1e15;
        return;
    }
#endif
    result = v > 0.0 ? sqrt(v) : v;
}
