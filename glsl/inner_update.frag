// Inner-product form (2006 paper Fig. 3c/4a): at fragment (k+1, i), the original element minus
// the inner product of row i and row k+1 over columns 0..k, by a dynamic loop.
// T0.y = i (own row), T1.x = k+.5 (last column of the sum), T1.y = k+1.5 (pivot row).
uniform samplerRECT S0;
in vec3 T0;
in vec3 T1;
out float result;

void main() {
    float sum = 0.0;
    int last = int(T1.x);
    for (int p = 0; p <= last; ++p) {
        float c = float(p) + 0.5;
        sum += texRECT(S0, vec2(c, T0.y)).r * texRECT(S0, vec2(c, T1.y)).r;
    }
    result = texRECT(S0, gl_FragCoord.xy).r - sum;
}
