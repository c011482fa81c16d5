// Matrix-vector products with A in runs of four columns (texel (K, i) = A(i, 4K..4K+3)) and
// vectors of four entries per texel. Default: y(4t..4t+3) = alpha A(4t..4t+3, :) x, four fetches
// of A and one of x per sixteen multiply-adds, over the `count` texels of x. TRANSPOSE:
// y(4K..4K+3) = alpha sum_i x(i) A(i, 4K..4K+3) over the `count` texels of x (rows of A; A's rows
// past m are zero). ADD_VECTOR: + beta z. Lanes at or past `len` are zero.
uniform samplerRECT S0; // A
uniform samplerRECT S1; // x
uniform samplerRECT S2; // z
uniform float count;
uniform float alpha;
uniform float beta;
uniform float len;
out vec4 result;

void main() {
    int t = int(gl_FragCoord.x);
    int n = int(count);
    vec4 sum = vec4(0.0);
    for (int p = 0; p < n; ++p) {
        vec4 x = texelAt(S1, ivec2(p, 0));
#ifdef TRANSPOSE
        sum += x.x * texelAt(S0, ivec2(t, 4 * p)) + x.y * texelAt(S0, ivec2(t, 4 * p + 1))
             + x.z * texelAt(S0, ivec2(t, 4 * p + 2)) + x.w * texelAt(S0, ivec2(t, 4 * p + 3));
#else
        sum += vec4(dot(texelAt(S0, ivec2(p, 4 * t)), x), dot(texelAt(S0, ivec2(p, 4 * t + 1)), x),
                    dot(texelAt(S0, ivec2(p, 4 * t + 2)), x), dot(texelAt(S0, ivec2(p, 4 * t + 3)), x));
#endif
    }
    vec4 r = alpha * sum;
#ifdef ADD_VECTOR
    r += beta * texelAt(S2, ivec2(t, 0));
#endif
    float e = float(4 * t);
    result = vec4(e < len ? r.x : 0.0, e + 1.0 < len ? r.y : 0.0, e + 2.0 < len ? r.z : 0.0, e + 3.0 < len ? r.w : 0.0);
}
