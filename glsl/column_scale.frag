// Kernel 1 (2008 structure paper): the k-th column of A scaled by d(k), written into b (m×1).
// One interpolated triad T0 = (i, k+.5, .5): A(i, k) at T0.yx, d(k) at T0.yz.
uniform samplerRECT S0; // A, n×m (A(i, k) at texel (k, i))
uniform samplerRECT S1; // d, n×1
in vec3 T0;
out float result;

void main() {
    result = texRECT(S0, T0.yx).r * texRECT(S1, T0.yz).r;
}
