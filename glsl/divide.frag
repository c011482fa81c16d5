// Kernel 1 (2008 IPM paper): the vector entry at the fragment divided by the diagonal entry of L
// whose index T0 carries.
uniform samplerRECT S0; // f
uniform samplerRECT S1; // L
in vec3 T0;
out float result;

void main() {
    result = texRECT(S0, gl_FragCoord.xy).r / texRECT(S1, T0.xy).r;
}
