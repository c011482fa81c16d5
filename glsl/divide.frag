// Kernel 1 (2008 IPM paper): the vector entry at the fragment divided by the diagonal entry of L
// whose index T0 carries.
uniform sampler2DRect S0; // f
uniform sampler2DRect S1; // L
in vec3 T0;
out float result;

void main() {
    result = texture(S0, gl_FragCoord.xy).r / texture(S1, T0.xy).r;
}
