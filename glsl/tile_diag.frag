// Register-tiled Cholesky, step 1 of 3: the diagonal block. The trailing matrix is held in four
// planes (S0..S3; plane 2r + c at tile (J, I) holds the 2x2 block (r, c) of the 4x4 tile (J, I)).
// Every fragment of the NT x NT tile target factors the B x B block at tile offset P in
// registers (B = BLOCK = 4 NT) as far as its own columns and writes its tile of L11 to the four
// planes of D (zero above the diagonal). Redundant work (each fragment refactors the block)
// buys a single pass. A pivot that is not positive (or is NaN) is kept as it is, so the
// breakdown check finds it. TINY_PIVOT: a pivot at or below tiny * C(k, k) (the original
// diagonal, S4, 4 entries per texel) is replaced by 1e15, dropping that row.
uniform samplerRECT S0;
uniform samplerRECT S1;
uniform samplerRECT S2;
uniform samplerRECT S3;
#ifdef TINY_PIVOT
uniform samplerRECT S4;
uniform float tiny;
#endif
uniform float offset;
layout(location = 0) out vec4 tile0;
layout(location = 1) out vec4 tile1;
layout(location = 2) out vec4 tile2;
layout(location = 3) out vec4 tile3;

const int B = BLOCK;
const int NT = BLOCK / 4;

float a[B * B];

void main() {
    int P = int(offset);
    ivec2 f = ivec2(gl_FragCoord.xy);
    if (f.x > f.y) {
        tile0 = vec4(0.0);
        tile1 = vec4(0.0);
        tile2 = vec4(0.0);
        tile3 = vec4(0.0);
        return;
    }
    for (int ty = 0; ty < NT; ++ty) {
        for (int tx = 0; tx <= ty; ++tx) {
            ivec2 at = ivec2(P + tx, P + ty);
            vec4 q[4];
            q[0] = texelAt(S0, at);
            q[1] = texelAt(S1, at);
            q[2] = texelAt(S2, at);
            q[3] = texelAt(S3, at);
            for (int r = 0; r < 2; ++r) {
                for (int c = 0; c < 2; ++c) {
                    vec4 v = q[2 * r + c];
                    int i = 4 * ty + 2 * r;
                    int j = 4 * tx + 2 * c;
                    a[i * B + j] = v.x;
                    a[i * B + j + 1] = v.y;
                    a[(i + 1) * B + j] = v.z;
                    a[(i + 1) * B + j + 1] = v.w;
                }
            }
        }
    }
    int last = 4 * f.x + 3;
    for (int k = 0; k <= last; ++k) {
        float p = a[k * B + k];
        float l = p > 0.0 ? sqrt(p) : p;
#ifdef TINY_PIVOT
        int g = 4 * P + k;
        float original = texelAt(S4, ivec2(g / 4, 0))[g % 4];
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
    int r0 = 4 * f.y;
    int c0 = 4 * f.x;
    vec4 row[4];
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            // Zero above the diagonal of a diagonal tile.
            row[r][c] = (f.x == f.y && c > r) ? 0.0 : a[(r0 + r) * B + c0 + c];
        }
    }
    tile0 = vec4(row[0].xy, row[1].xy);
    tile1 = vec4(row[0].zw, row[1].zw);
    tile2 = vec4(row[2].xy, row[3].xy);
    tile3 = vec4(row[2].zw, row[3].zw);
}
