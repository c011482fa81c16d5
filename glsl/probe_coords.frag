// Writes one component of the interpolated coordinates, so tests can read them back.
in vec3 T0;
in vec3 T1;
uniform float component;
out float result;

void main() {
    int c = int(component);
    vec3 t = c < 3 ? T0 : T1;
    result = t[c - 3 * (c / 3)];
}
