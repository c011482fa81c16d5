// Blocked Cholesky, step 3 of 3: the rank-B update A22 - L21 L21^T of the trailing lower
// triangle of blocks, drawn as the oversized triangle over 2x2 blocks. Fragment (J, I) reads its
// own block of S0 and, per texel column t of the panel, the blocks of rows I and J of L (S1):
// eight multiply-adds per two fetches.
uniform samplerRECT S0; // the trailing matrix
uniform samplerRECT S1; // the factor, panel at texel offset P
uniform float offset;
out vec4 result;

const int NB = BLOCK / 2;

void main() {
    int P = int(offset);
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 acc = texelAt(S0, g);
    for (int t = 0; t < NB; ++t) {
        vec4 li = texelAt(S1, ivec2(P + t, g.y));
        vec4 lj = texelAt(S1, ivec2(P + t, g.x));
        acc -= vec4(li.x * lj.x + li.y * lj.y, li.x * lj.z + li.y * lj.w, li.z * lj.x + li.w * lj.y,
                    li.z * lj.z + li.w * lj.w);
    }
    result = acc;
}
