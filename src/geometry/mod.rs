//! Pure geometry: the vertices and texture coordinates of every primitive a pass draws.
//!
//! Coordinates are texel units with the papers' convention: x = column j, y = row i, texel
//! (j, i) covers [j, j+1) × [i, i+1) and its centre is (j + 0.5, i + 0.5). A fragment is shaded
//! when its centre lies inside the primitive, so the papers place edges on half-integers.
//! Nothing here touches GL; every recipe is unit-tested by computing which texel centres it covers.

pub mod assembly;
pub mod blocks;
pub mod cholesky;
pub mod coverage;
pub mod lu;
pub mod packed;
pub mod solve;
pub mod tiles;

/// One vertex: a position and two 3-component texture coordinates (the papers' T0, T1).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Vertex {
    pub pos: [f32; 2],
    pub t0: [f32; 3],
    pub t1: [f32; 3],
}

impl Vertex {
    /// A vertex at `(x, y)` carrying `t0` and `t1`.
    pub const fn new(pos: [f32; 2], t0: [f32; 3], t1: [f32; 3]) -> Self {
        Self { pos, t0, t1 }
    }
    /// A vertex at `(x, y)` whose T0 is its own position (z = 0) and T1 is zero.
    pub const fn at(x: f32, y: f32) -> Self {
        Self { pos: [x, y], t0: [x, y, 0.0], t1: [0.0; 3] }
    }
}

/// The kind of primitive a pass draws (what the papers call point, line, rectangle, triangle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveKind {
    Point,
    Line,
    Rectangle,
    Triangle,
    TwoTriangles,
}

/// A primitive with its vertices. Rectangles are given by their four corners in strip order
/// (bottom-left, bottom-right, top-left, top-right) and drawn as a two-triangle strip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Primitive {
    Point(Vertex),
    Line([Vertex; 2]),
    Rectangle([Vertex; 4]),
    Triangle([Vertex; 3]),
    TwoTriangles([Vertex; 6]),
}

impl Primitive {
    pub fn kind(&self) -> PrimitiveKind {
        match self {
            Primitive::Point(_) => PrimitiveKind::Point,
            Primitive::Line(_) => PrimitiveKind::Line,
            Primitive::Rectangle(_) => PrimitiveKind::Rectangle,
            Primitive::Triangle(_) => PrimitiveKind::Triangle,
            Primitive::TwoTriangles(_) => PrimitiveKind::TwoTriangles,
        }
    }

    /// The vertices in draw order.
    pub fn vertices(&self) -> &[Vertex] {
        match self {
            Primitive::Point(v) => std::slice::from_ref(v),
            Primitive::Line(v) => v,
            Primitive::Rectangle(v) => v,
            Primitive::Triangle(v) => v,
            Primitive::TwoTriangles(v) => v,
        }
    }

    /// The rectangle covering texels `j0..j1` × `i0..i1` (half-open), with T0 = the position
    /// (so a copy kernel reading at T0 copies texel for texel) and T1 = 0.
    pub fn texel_rect(j0: u32, i0: u32, j1: u32, i1: u32) -> Self {
        let (x0, y0, x1, y1) = (j0 as f32, i0 as f32, j1 as f32, i1 as f32);
        Primitive::Rectangle([Vertex::at(x0, y0), Vertex::at(x1, y0), Vertex::at(x0, y1), Vertex::at(x1, y1)])
    }

    /// A rectangle over texels `j0..j1` × `i0..i1` whose vertices carry the given T0/T1 at the
    /// corners, in order (j0,i0), (j1,i0), (j0,i1), (j1,i1).
    pub fn rect_with(j0: u32, i0: u32, j1: u32, i1: u32, t0: [[f32; 3]; 4], t1: [[f32; 3]; 4]) -> Self {
        let (x0, y0, x1, y1) = (j0 as f32, i0 as f32, j1 as f32, i1 as f32);
        let p = [[x0, y0], [x1, y0], [x0, y1], [x1, y1]];
        Primitive::Rectangle(std::array::from_fn(|c| Vertex::new(p[c], t0[c], t1[c])))
    }

    /// The point covering texel (j, i): placed at its centre, T0 = the centre.
    pub fn texel_point(j: u32, i: u32) -> Self {
        Primitive::Point(Vertex::at(j as f32 + 0.5, i as f32 + 0.5))
    }

    /// The same primitive with positions scaled by (sx, sy) (texel units to the logical entries
    /// of an RGBA texture, for drawing).
    pub fn scaled(&self, sx: f32, sy: f32) -> Self {
        let mut p = *self;
        let scale = |v: &mut Vertex| v.pos = [v.pos[0] * sx, v.pos[1] * sy];
        match &mut p {
            Primitive::Point(v) => scale(v),
            Primitive::Line(vs) => vs.iter_mut().for_each(scale),
            Primitive::Rectangle(vs) => vs.iter_mut().for_each(scale),
            Primitive::Triangle(vs) => vs.iter_mut().for_each(scale),
            Primitive::TwoTriangles(vs) => vs.iter_mut().for_each(scale),
        }
        p
    }

    /// The whole `width × height` texture.
    pub fn full(width: u32, height: u32) -> Self {
        Self::texel_rect(0, 0, width, height)
    }
}
