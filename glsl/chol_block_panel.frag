// Blocked Cholesky, step 2 of 3: the panel L21 = A21 L11^-T, written with the diagonal block into
// the factor texture (column block at texel offset P). Fragments of the diagonal block copy L11
// from S1; a fragment below it solves its two rows x L11^T = a by forward substitution over the
// columns up to its own (two columns per texel: one fetch of L11 serves eight multiply-adds).
uniform samplerRECT S0; // the trailing matrix (A21)
uniform samplerRECT S1; // L11, NB x NB texels
uniform float offset;
out vec4 result;

const int B = BLOCK;
const int NB = BLOCK / 2;

void main() {
    int P = int(offset);
    ivec2 g = ivec2(gl_FragCoord.xy);
    int xl = g.x - P;
    if (g.y < P + NB) {
        result = texelAt(S1, ivec2(xl, g.y - P));
        return;
    }
    float l0[B];
    float l1[B];
    for (int cp = 0; cp <= xl; ++cp) {
        vec4 s = texelAt(S0, ivec2(P + cp, g.y));
        for (int qp = 0; qp < cp; ++qp) {
            vec4 d = texelAt(S1, ivec2(qp, cp));
            float a0 = l0[2 * qp], a1 = l0[2 * qp + 1], b0 = l1[2 * qp], b1 = l1[2 * qp + 1];
            s -= vec4(a0 * d.x + a1 * d.y, a0 * d.z + a1 * d.w, b0 * d.x + b1 * d.y, b0 * d.z + b1 * d.w);
        }
        vec4 dd = texelAt(S1, ivec2(cp, cp));
        float x0 = s.x / dd.x;
        float y0 = s.z / dd.x;
        l0[2 * cp] = x0;
        l1[2 * cp] = y0;
        l0[2 * cp + 1] = (s.y - x0 * dd.z) / dd.w;
        l1[2 * cp + 1] = (s.w - y0 * dd.z) / dd.w;
    }
    result = vec4(l0[2 * xl], l0[2 * xl + 1], l1[2 * xl], l1[2 * xl + 1]);
}
