// One pass of a reduction over vectors of four entries per texel: texel j of the target combines,
// channel by channel, texels FAN j .. FAN j + FAN - 1 of the source; entries at or past `len`
// (and texels past the source) count as the identity. The last pass leaves one texel whose four
// channels the caller combines. NaN propagates through every operation. MAXABS takes |x| on the
// first pass (FIRST) only; later passes combine maxima.
uniform samplerRECT S0;
uniform float len;
uniform float width;
out vec4 result;

const float NAN = uintBitsToFloat(0x7fc00000u);
const float INF = uintBitsToFloat(0x7f800000u);
const int FAN = 8;

#if defined(SUM) || defined(MAXABS)
const float IDENTITY = 0.0;
#elif defined(MIN)
const float IDENTITY = INF;
#else
const float IDENTITY = -INF;
#endif

float combine(float a, float b) {
    if (isnan(a) || isnan(b)) return NAN;
#if defined(SUM)
    return a + b;
#elif defined(MAXABS)
    return max(a, b);
#elif defined(MIN)
    return min(a, b);
#else
    return max(a, b);
#endif
}

void main() {
    int j = int(gl_FragCoord.x);
    vec4 acc = vec4(IDENTITY);
    for (int f = 0; f < FAN; ++f) {
        int t = FAN * j + f;
        if (float(t) >= width) {
            break;
        }
        vec4 v = texelAt(S0, ivec2(t, 0));
        for (int c = 0; c < 4; ++c) {
            float x = float(4 * t + c) < len ? v[c] : IDENTITY;
#if defined(MAXABS) && defined(FIRST)
            x = abs(x);
#endif
            acc[c] = combine(acc[c], x);
        }
    }
    result = acc;
}
