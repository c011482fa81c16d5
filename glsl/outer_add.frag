// Kernel 2 (2008 structure paper): the outer-product addition C(i, j) + A(i, k)·b(j).
uniform samplerRECT S0; // C (source of the ping-pong pair)
uniform samplerRECT S1; // A
uniform samplerRECT S2; // b
in vec3 T0;
in vec3 T1;
out float result;

void main() {
    result = texRECT(S0, gl_FragCoord.xy).r + texRECT(S1, T0.xy).r * texRECT(S2, T1.xy).r;
}
