//! A reference rasterizer for tests and plans: which texel centres a primitive covers and the
//! texture coordinates interpolated there, computed exactly as GL's rules state them for the
//! primitives the papers draw. It lets geometry be checked without a driver, and lets tests compare
//! the driver's output (occlusion counts, written texels) with an independent prediction.

use super::{Primitive, Vertex};

/// One covered texel and the attributes interpolated at its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fragment {
    /// Column.
    pub j: u32,
    /// Row.
    pub i: u32,
    pub t0: [f64; 3],
    pub t1: [f64; 3],
}

/// Why a primitive's coverage is not determined by centres alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoverageError {
    /// A texel centre lies exactly on an edge: coverage would depend on GL's tie-breaking rule.
    #[error("the centre of texel ({j}, {i}) lies on an edge of the primitive: coverage depends on GL's tie-breaking")]
    CentreOnEdge {
        /// 0-based column of the texel.
        j: u32,
        /// 0-based row of the texel.
        i: u32,
    },
    /// Lines are supported only axis-aligned (the papers draw no others).
    #[error("a slanted line: only lines along a row or a column are supported")]
    SlantedLine,
}

/// The fragments a primitive produces in a `width × height` target, in row-major order.
///
/// Triangles and rectangles: texels whose centre lies strictly inside (a centre on an edge is an
/// error, since the papers place every edge so that none does). Points (size 1): the texel
/// containing the point. Axis-aligned lines: GL's diamond-exit rule, which for a line along a
/// row or column of centres covers the texels from the start point up to, not including, the end.
pub fn fragments(p: &Primitive, width: u32, height: u32) -> Result<Vec<Fragment>, CoverageError> {
    let mut out = Vec::new();
    match p {
        Primitive::Point(v) => {
            let (x, y) = (v.pos[0] as f64, v.pos[1] as f64);
            if x >= 0.0 && y >= 0.0 && x < width as f64 && y < height as f64 {
                out.push(frag(x.floor() as u32, y.floor() as u32, v.t0, v.t1));
            }
        }
        Primitive::Line([a, b]) => line(a, b, width, height, &mut out)?,
        Primitive::Rectangle([a, b, c, d]) => {
            // A strip's two triangles share the diagonal; GL shades each fragment once.
            triangles(&[[*a, *b, *c], [*c, *b, *d]], width, height, &mut out)?
        }
        Primitive::Triangle([a, b, c]) => triangles(&[[*a, *b, *c]], width, height, &mut out)?,
        Primitive::TwoTriangles(v) => triangles(&[[v[0], v[1], v[2]], [v[3], v[4], v[5]]], width, height, &mut out)?,
    }
    out.sort_by_key(|f| (f.i, f.j));
    Ok(out)
}

fn frag(j: u32, i: u32, t0: [f32; 3], t1: [f32; 3]) -> Fragment {
    Fragment { j, i, t0: t0.map(f64::from), t1: t1.map(f64::from) }
}

fn line(a: &Vertex, b: &Vertex, w: u32, h: u32, out: &mut Vec<Fragment>) -> Result<(), CoverageError> {
    let (ax, ay, bx, by) = (a.pos[0] as f64, a.pos[1] as f64, b.pos[0] as f64, b.pos[1] as f64);
    let horizontal = ay == by;
    if !horizontal && ax != bx {
        return Err(CoverageError::SlantedLine);
    }
    let (s0, s1, fixed) = if horizontal { (ax, bx, ay) } else { (ay, by, ax) };
    let len = s1 - s0;
    if len == 0.0 {
        return Ok(());
    }
    // Centres c with s0 ≤ c < s1 (or s1 < c ≤ s0 when drawn backwards).
    let (lo, hi) = if len > 0.0 { (s0, s1) } else { (s1, s0) };
    let fixed_texel = fixed.floor();
    let mut c = (lo - 0.5).ceil() + 0.5;
    while c <= hi {
        let inside = if len > 0.0 { c >= s0 && c < s1 } else { c <= s0 && c > s1 };
        let t = (c - s0) / len;
        let texel = (c - 0.5) as i64;
        let (j, i) = if horizontal { (texel, fixed_texel as i64) } else { (fixed_texel as i64, texel) };
        if inside && j >= 0 && i >= 0 && (j as u32) < w && (i as u32) < h {
            let lerp =
                |p: [f32; 3], q: [f32; 3]| std::array::from_fn(|k| p[k] as f64 + t * (q[k] as f64 - p[k] as f64));
            out.push(Fragment { j: j as u32, i: i as u32, t0: lerp(a.t0, b.t0), t1: lerp(a.t1, b.t1) });
        }
        c += 1.0;
    }
    Ok(())
}

fn triangles(tris: &[[Vertex; 3]], w: u32, h: u32, out: &mut Vec<Fragment>) -> Result<(), CoverageError> {
    let pos = |t: &[Vertex; 3]| t.map(|v| (v.pos[0] as f64, v.pos[1] as f64));
    let all: Vec<(f64, f64)> = tris.iter().flat_map(pos).collect();
    let minx = all.iter().map(|q| q.0).fold(f64::INFINITY, f64::min);
    let maxx = all.iter().map(|q| q.0).fold(f64::NEG_INFINITY, f64::max);
    let miny = all.iter().map(|q| q.1).fold(f64::INFINITY, f64::min);
    let maxy = all.iter().map(|q| q.1).fold(f64::NEG_INFINITY, f64::max);
    let j0 = (minx - 0.5).ceil().max(0.0) as i64;
    let i0 = (miny - 0.5).ceil().max(0.0) as i64;
    let j1 = ((maxx - 0.5).floor()).min(w as f64 - 1.0) as i64;
    let i1 = ((maxy - 0.5).floor()).min(h as f64 - 1.0) as i64;
    for i in i0..=i1 {
        for j in j0..=j1 {
            let c = (j as f64 + 0.5, i as f64 + 0.5);
            let (ju, iu) = (j as u32, i as u32);
            let mut hit: Option<([f64; 3], &[Vertex; 3])> = None;
            for (n, t) in tris.iter().enumerate() {
                let p = pos(t);
                let area = edge(p[0], p[1], p[2]);
                if area == 0.0 {
                    continue;
                }
                let b = [edge(p[1], p[2], c) / area, edge(p[2], p[0], c) / area, edge(p[0], p[1], c) / area];
                if b.iter().any(|&x| x < 0.0) {
                    continue;
                }
                // b[v] == 0 means the centre lies on the edge opposite vertex v.
                for v in 0..3 {
                    if b[v] == 0.0 {
                        let (a, e) = (t[(v + 1) % 3].pos, t[(v + 2) % 3].pos);
                        let shared = tris
                            .iter()
                            .enumerate()
                            .any(|(m, u)| m != n && u.iter().any(|x| x.pos == a) && u.iter().any(|x| x.pos == e));
                        if !shared {
                            return Err(CoverageError::CentreOnEdge { j: ju, i: iu });
                        }
                    }
                }
                if hit.is_none() {
                    hit = Some((b, t));
                }
            }
            if let Some((b, t)) = hit {
                let interp = |f: fn(&Vertex) -> [f32; 3]| -> [f64; 3] {
                    std::array::from_fn(|k| (0..3).map(|v| b[v] * f(&t[v])[k] as f64).sum())
                };
                out.push(Fragment { j: ju, i: iu, t0: interp(|v| v.t0), t1: interp(|v| v.t1) });
            }
        }
    }
    Ok(())
}

/// Twice the signed area of (a, b, c).
fn edge(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// How many fragments [`fragments`] would produce, without listing them: a row at a time, so a
/// pass over an m×m triangle costs O(m) (what a context without `GL_SAMPLES_PASSED` reports as
/// its predicted fragment count). The same rules and the same errors as [`fragments`].
pub fn count(p: &Primitive, width: u32, height: u32) -> Result<u64, CoverageError> {
    match p {
        Primitive::Point(_) | Primitive::Line(_) => Ok(fragments(p, width, height)?.len() as u64),
        Primitive::Rectangle([a, b, c, d]) => count_triangles(&[[*a, *b, *c], [*c, *b, *d]], width, height),
        Primitive::Triangle([a, b, c]) => count_triangles(&[[*a, *b, *c]], width, height),
        Primitive::TwoTriangles(v) => count_triangles(&[[v[0], v[1], v[2]], [v[3], v[4], v[5]]], width, height),
    }
}

fn count_triangles(tris: &[[Vertex; 3]], w: u32, h: u32) -> Result<u64, CoverageError> {
    let pos = |t: &[Vertex; 3]| t.map(|v| (v.pos[0] as f64, v.pos[1] as f64));
    let mut total = 0u64;
    let (miny, maxy) =
        tris.iter().flat_map(pos).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| (lo.min(q.1), hi.max(q.1)));
    let i0 = (miny - 0.5).ceil().max(0.0) as i64;
    let i1 = ((maxy - 0.5).floor()).min(h as f64 - 1.0) as i64;
    let mut spans: Vec<(i64, i64)> = Vec::with_capacity(tris.len());
    for i in i0..=i1 {
        let yc = i as f64 + 0.5;
        spans.clear();
        for (n, t) in tris.iter().enumerate() {
            let p = pos(t);
            let area = edge(p[0], p[1], p[2]);
            if area == 0.0 {
                continue;
            }
            let bary = |j: i64| {
                let c = (j as f64 + 0.5, yc);
                [edge(p[1], p[2], c) / area, edge(p[2], p[0], c) / area, edge(p[0], p[1], c) / area]
            };
            let inside = |j: i64| bary(j).iter().all(|&x| x >= 0.0);
            // Where the row's line meets the edges; the exact test below settles the ends.
            let mut xs = Vec::with_capacity(3);
            for e in 0..3 {
                let (a, b) = (p[e], p[(e + 1) % 3]);
                if (a.1 - yc) * (b.1 - yc) <= 0.0 {
                    if a.1 == b.1 {
                        xs.extend([a.0, b.0]);
                    } else {
                        xs.push(a.0 + (yc - a.1) / (b.1 - a.1) * (b.0 - a.0));
                    }
                }
            }
            if xs.is_empty() {
                continue;
            }
            let xl = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let xr = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut jl = ((xl - 0.5).ceil() as i64 - 1).max(0);
            let mut jr = ((xr - 0.5).floor() as i64 + 1).min(w as i64 - 1);
            while jl <= jr && !inside(jl) {
                jl += 1;
            }
            while jr >= jl && !inside(jr) {
                jr -= 1;
            }
            if jl > jr {
                continue;
            }
            // A centre on an edge lies at an end of the span (or the whole span lies on a
            // horizontal edge, and then on its ends too).
            for j in [jl, jr] {
                let b = bary(j);
                for v in 0..3 {
                    if b[v] == 0.0 {
                        let (a, e) = (t[(v + 1) % 3].pos, t[(v + 2) % 3].pos);
                        let shared = tris
                            .iter()
                            .enumerate()
                            .any(|(m, u)| m != n && u.iter().any(|x| x.pos == a) && u.iter().any(|x| x.pos == e));
                        if !shared {
                            return Err(CoverageError::CentreOnEdge { j: j as u32, i: i as u32 });
                        }
                    }
                }
            }
            spans.push((jl, jr));
        }
        // Fragments are shaded once: the union of the triangles' spans.
        spans.sort_unstable();
        let mut end = -1i64;
        for &(l, r) in spans.iter() {
            let l = l.max(end + 1);
            if r >= l {
                total += (r - l + 1) as u64;
                end = r;
            }
        }
    }
    Ok(total)
}

#[cfg(test)]
mod count_tests {
    use super::*;
    use crate::geometry::{assembly, blocks, cholesky, packed};

    /// Whether the two agree (asserted); true when the primitive could be counted.
    fn agree(p: &Primitive, w: u32, h: u32) -> bool {
        let listed = fragments(p, w, h).map(|f| f.len() as u64);
        let counted = count(p, w, h);
        // Both must refuse the same primitives; the centre each names first may differ.
        match (counted, listed) {
            (Ok(c), Ok(l)) => {
                assert_eq!(c, l, "{p:?} in {w}×{h}");
                true
            }
            (c, l) => {
                assert!(c.is_err() && l.is_err(), "{p:?} in {w}×{h}: {c:?} against {l:?}");
                false
            }
        }
    }

    #[test]
    fn counts_equal_the_listed_fragments_of_the_papers_primitives() {
        for m in [1u32, 2, 3, 7, 8, 9, 16, 33] {
            for k in 0..m.saturating_sub(1) {
                agree(&cholesky::fig5_outer_update_triangle(k, m), m, m);
                agree(&cholesky::square_outer_update(k, m), m, m);
            }
            agree(&Primitive::full(m, m + 2), m, m + 2);
            agree(&Primitive::texel_rect(1, 0, m + 1, m), m + 3, m);
        }
        for m in [2u32, 3, 5, 8, 9] {
            let shape = crate::layout::packed::Packed::new(m as usize);
            let (w, h) = (shape.w as u32, shape.h as u32);
            for k in 0..m.saturating_sub(1) {
                agree(&packed::fig6_fig7_packed_update(k, m), w, h);
                agree(&assembly::fig4_packed_outer_addition(k, m), w, h);
            }
        }
        for nb in [1u32, 3, 8] {
            agree(&blocks::lower_triangle(0, nb), nb, nb);
        }
    }

    #[test]
    fn counts_equal_the_listed_fragments_of_arbitrary_triangles() {
        // Vertices on a quarter-texel grid: some put centres on edges, and both must say so.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 88) as f32 * 0.25 - 1.0
        };
        let mut counted = 0;
        for _ in 0..3000 {
            let v = [0; 6].map(|_| Vertex::at(next(), next()));
            counted += agree(&Primitive::Triangle([v[0], v[1], v[2]]), 17, 19) as usize;
            counted += agree(&Primitive::TwoTriangles(v), 20, 16) as usize;
            // Two triangles sharing an edge, as the rectangle and the packed passes draw them.
            counted += agree(&Primitive::TwoTriangles([v[0], v[1], v[2], v[2], v[1], v[3]]), 21, 21) as usize;
        }
        assert!(counted > 2000, "only {counted} of 9000 primitives had no centre on an edge");
    }
}
