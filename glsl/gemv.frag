// Matrix-vector product, one inner product per fragment. A is m x n stored as an n x m texture
// (A(i, k) at texel (k, i)). Default: y(i) = alpha * sum_k A(i, k) x(k) over k < count.
// TRANSPOSE: y(k) = alpha * sum_i A(i, k) x(i) over i < count. ADD_VECTOR: + beta * z(own index).
uniform samplerRECT S0; // A
uniform samplerRECT S1; // x
uniform samplerRECT S2; // z
uniform float count;
uniform float alpha;
uniform float beta;
out float result;

void main() {
    float own = gl_FragCoord.x;
    float sum = 0.0;
    int n = int(count);
    for (int p = 0; p < n; ++p) {
        float c = float(p) + 0.5;
#ifdef TRANSPOSE
        sum += texRECT(S0, vec2(own, c)).r * texRECT(S1, vec2(c, 0.5)).r;
#else
        sum += texRECT(S0, vec2(c, own)).r * texRECT(S1, vec2(c, 0.5)).r;
#endif
    }
    result = alpha * sum;
#ifdef ADD_VECTOR
    result += beta * texRECT(S2, vec2(own, 0.5)).r;
#endif
}
