// Kernel 2 (2008 structure paper): the outer-product addition C(i, j) + A(i, k)·b(j).
uniform sampler2DRect S0; // C (source of the ping-pong pair)
uniform sampler2DRect S1; // A
uniform sampler2DRect S2; // b
in vec3 T0;
in vec3 T1;
out float result;

void main() {
    result = texture(S0, gl_FragCoord.xy).r + texture(S1, T0.xy).r * texture(S2, T1.xy).r;
}
