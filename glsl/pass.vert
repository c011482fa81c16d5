// Shared by every pass. Positions are in texel units (x = column, y = row); the viewport is the
// target's size, so (0,0)..(w,h) maps onto clip space exactly.
layout(location = 0) in vec2 position;
layout(location = 1) in vec3 t0;
layout(location = 2) in vec3 t1;
uniform vec2 viewport;
out vec3 T0;
out vec3 T1;

void main() {
    T0 = t0;
    T1 = t1;
    gl_Position = vec4(position / viewport * 2.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
