// The diagonal of a matrix in 4x4 tiles (four planes) as a vector, four entries per texel:
// texel t holds the diagonal of tile (t, t), whose 2x2 blocks (0, 0) and (1, 1) are planes 0
// (S0) and 3 (S1).
uniform samplerRECT S0;
uniform samplerRECT S1;
out vec4 result;

void main() {
    ivec2 d = ivec2(int(gl_FragCoord.x));
    vec4 a = texelAt(S0, d);
    vec4 b = texelAt(S1, d);
    result = vec4(a.x, a.w, b.x, b.w);
}
