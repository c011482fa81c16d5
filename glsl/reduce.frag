// One pass of a halving reduction: entry j of the target combines entries 2j and 2j+1 of the
// source, whose valid length is `len` (a missing partner is the operation's identity). NaN
// propagates through every operation: a NaN anywhere makes the result NaN.
uniform samplerRECT S0;
uniform float len;
out float result;

const float NAN = uintBitsToFloat(0x7fc00000u);
const float INF = uintBitsToFloat(0x7f800000u);

float combine(float a, float b) {
    if (isnan(a) || isnan(b)) return NAN;
#if defined(SUM)
    return a + b;
#elif defined(MAXABS)
    return max(abs(a), abs(b));
#elif defined(MIN)
    return min(a, b);
#elif defined(MAX)
    return max(a, b);
#endif
}

void main() {
    float j = floor(gl_FragCoord.x);
    float a = texRECT(S0, vec2(2.0 * j + 0.5, 0.5)).r;
#if defined(SUM) || defined(MAXABS)
    float identity = 0.0;
#elif defined(MIN)
    float identity = INF;
#else
    float identity = -INF;
#endif
    float b = 2.0 * j + 1.0 < len ? texRECT(S0, vec2(2.0 * j + 1.5, 0.5)).r : identity;
    result = combine(a, b);
}
