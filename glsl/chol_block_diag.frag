// Blocked Cholesky, step 1 of 3: the diagonal block. Matrices hold 2x2 blocks per RGBA texel
// (r, g, b, a) = (a(2I,2J), a(2I,2J+1), a(2I+1,2J), a(2I+1,2J+1)) at texel (J, I). Every fragment
// of the NB x NB texel target factors the B x B block at texel offset P of S0 in registers
// (B = 2 NB = BLOCK) as far as its own columns and writes its 2x2 block of L11 (zero above the
// diagonal). Redundant work (each fragment refactors the block) buys a single pass.
// A pivot that is not positive (or is NaN) is kept as it is, so the breakdown check finds it.
// TINY_PIVOT: a pivot at or below tiny * C(k, k) (the original diagonal, S1, 4 entries per
// texel) is replaced by 1e15, dropping that row (interior-point normal equations).
uniform samplerRECT S0;
#ifdef TINY_PIVOT
uniform samplerRECT S1;
uniform float tiny;
#endif
uniform float offset;
out vec4 result;

const int B = BLOCK;
const int NB = BLOCK / 2;

float a[B * B];

void main() {
    int P = int(offset);
    ivec2 f = ivec2(gl_FragCoord.xy);
    if (f.x > f.y) {
        result = vec4(0.0);
        return;
    }
    for (int ty = 0; ty < NB; ++ty) {
        for (int tx = 0; tx <= ty; ++tx) {
            vec4 v = texelAt(S0, ivec2(P + tx, P + ty));
            a[(2 * ty) * B + 2 * tx] = v.x;
            a[(2 * ty) * B + 2 * tx + 1] = v.y;
            a[(2 * ty + 1) * B + 2 * tx] = v.z;
            a[(2 * ty + 1) * B + 2 * tx + 1] = v.w;
        }
    }
    int last = 2 * f.x + 1;
    for (int k = 0; k <= last; ++k) {
        float p = a[k * B + k];
        float l = p > 0.0 ? sqrt(p) : p;
#ifdef TINY_PIVOT
        int g = 2 * P + k;
        float original = texelAt(S1, ivec2(g / 4, 0))[g % 4];
        if (!isnan(p) && p <= tiny * original) {
            l = 1e15;
        }
#endif
        a[k * B + k] = l;
        for (int i = k + 1; i < B; ++i) {
            a[i * B + k] /= l;
        }
        for (int j = k + 1; j <= last; ++j) {
            float ljk = a[j * B + k];
            for (int i = j; i < B; ++i) {
                a[i * B + j] -= a[i * B + k] * ljk;
            }
        }
    }
    int r = 2 * f.y;
    int c = 2 * f.x;
    float upper = f.x == f.y ? 0.0 : a[r * B + c + 1];
    result = vec4(a[r * B + c], upper, a[(r + 1) * B + c], a[(r + 1) * B + c + 1]);
}
