//! The CPU renderer of one frame: the textures' values as heatmaps side by side, each with its
//! title and legend, the current pass's primitive outlined on its target, and a status line.
//! The window and the PNG dumps show the same image, so what a test checks on a dump is what a
//! person sees in the window. Pure: values in, pixels out.

use super::colormap::{self, Range, Rgb};
use super::font;
use super::panels::BAR_H;
pub use super::panels::{layout, natural_size, PanelRect, LINE_H, MARGIN, TEXT_SCALE};
use crate::geometry::Primitive;
use image::{Rgba, RgbaImage};

/// The window's background (never a colormap colour).
pub const BACKGROUND: Rgb = [28, 28, 32];
/// Text.
pub const TEXT: Rgb = [225, 225, 225];
/// The block grid of RGBA textures: dark grey, darker than any colour of the colormap.
pub const GRID: Rgb = [40, 40, 40];
/// The outline of the pass's primitive: pure green, which the diverging colormap never produces.
pub const OUTLINE: Rgb = [0, 255, 0];
/// The one-pixel frame drawn just outside each heatmap.
pub const FRAME: Rgb = [96, 96, 96];
/// One texture to draw.
#[derive(Clone, Debug)]
pub struct Panel<'a> {
    pub title: String,
    /// Texture size in texels.
    pub width: u32,
    pub height: u32,
    /// Row-major values (row i = texel row y = i), `width × height` of them.
    pub values: &'a [f32],
    /// The primitive to outline on this texture (logical coordinates).
    pub outline: Option<Primitive>,
    /// Entries per texel along x and y: a grid line every so many entries when > 1 (the 2×2
    /// blocks of an RGBA texture), drawn where a block is at least 4 pixels wide.
    pub grid: (u32, u32),
}

/// A whole frame: status lines on top, panels in a row.
#[derive(Clone, Debug, Default)]
pub struct Frame<'a> {
    pub status: Vec<String>,
    pub panels: Vec<Panel<'a>>,
}

fn put(img: &mut RgbaImage, x: i32, y: i32, c: Rgb) {
    if x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height() {
        img.put_pixel(x as u32, y as u32, Rgba([c[0], c[1], c[2], 255]));
    }
}

fn text(img: &mut RgbaImage, s: &str, x: i32, y: i32, max_w: Option<u32>) {
    let s: String = match max_w {
        Some(w) => s.chars().take((w / (font::ADVANCE * TEXT_SCALE)).max(1) as usize).collect(),
        None => s.to_string(),
    };
    font::rasterize(&s, x, y, TEXT_SCALE, |px, py| put(img, px, py, TEXT));
}

/// Width in pixels of `s` as drawn by the renderer.
pub fn text_width(s: &str) -> u32 {
    font::text_width(s, TEXT_SCALE)
}

/// A compact label for a range limit: 3 significant digits.
pub fn short(v: f32) -> String {
    format!("{v:.2e}")
}

/// Renders `frame` into a `width × height` RGBA image.
pub fn render(frame: &Frame, width: u32, height: u32) -> RgbaImage {
    let (width, height) = (width.max(1), height.max(1));
    let mut img = RgbaImage::from_pixel(width, height, Rgba([BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], 255]));
    for (l, line) in frame.status.iter().enumerate() {
        let y = (MARGIN / 2 + l as u32 * LINE_H) as i32;
        text(&mut img, line, MARGIN as i32, y, Some(width.saturating_sub(2 * MARGIN)));
    }
    let sizes: Vec<(u32, u32)> = frame.panels.iter().map(|p| (p.width, p.height)).collect();
    let rects = layout(width, height, frame.status.len(), &sizes);
    for (panel, rect) in frame.panels.iter().zip(&rects) {
        draw_panel(&mut img, panel, rect);
    }
    for (panel, rect) in frame.panels.iter().zip(&rects) {
        if let Some(p) = &panel.outline {
            outline(&mut img, p, rect);
        }
    }
    img
}

fn draw_panel(img: &mut RgbaImage, panel: &Panel, r: &PanelRect) {
    let box_w = (r.clip[2] - r.clip[0]) as u32 - MARGIN;
    text(img, &panel.title, r.clip[0] + MARGIN as i32 / 2, r.y - LINE_H as i32, Some(box_w));
    for x in r.x - 1..=r.x + r.px_w as i32 {
        put(img, x, r.y - 1, FRAME);
        put(img, x, r.y + r.px_h as i32, FRAME);
    }
    for y in r.y - 1..=r.y + r.px_h as i32 {
        put(img, r.x - 1, y, FRAME);
        put(img, r.x + r.px_w as i32, y, FRAME);
    }
    let range = Range::robust(panel.values);
    let w = panel.width as usize;
    let cols: Vec<Option<u32>> = (0..r.px_w as i32).map(|dx| r.texel_of(r.x + dx, r.y).map(|t| t.0)).collect();
    for dy in 0..r.px_h as i32 {
        let Some((_, i)) = r.texel_of(r.x, r.y + dy) else { continue };
        for (dx, j) in cols.iter().enumerate() {
            let Some(j) = j else { continue };
            if let Some(v) = panel.values.get(i as usize * w + *j as usize) {
                put(img, r.x + dx as i32, r.y + dy, colormap::color(*v, range));
            }
        }
    }
    grid_lines(img, panel, r);
    legend(img, r, range, box_w);
}

/// The texel grid of an RGBA texture: a dark line between texels (blocks of entries).
fn grid_lines(img: &mut RgbaImage, panel: &Panel, r: &PanelRect) {
    let (gx, gy) = panel.grid;
    if gx <= 1 && gy <= 1 || r.sx * (gx as f32) < 4.0 || r.sy * (gy as f32) < 4.0 {
        return;
    }
    for k in (gx..panel.width).step_by(gx as usize) {
        let (x, _) = r.to_pixel(k as f32, 0.0);
        for dy in 0..r.px_h as i32 {
            put(img, x as i32, r.y + dy, GRID);
        }
    }
    for k in (gy..panel.height).step_by(gy as usize) {
        let (_, y) = r.to_pixel(0.0, k as f32);
        for dx in 0..r.px_w as i32 {
            put(img, r.x + dx, y as i32, GRID);
        }
    }
}

fn legend(img: &mut RgbaImage, r: &PanelRect, range: Range, box_w: u32) {
    let bar_w = r.px_w.max(120).min(box_w) as i32;
    let x0 = r.clip[0] + MARGIN as i32 / 2 + (box_w as i32 - bar_w) / 2;
    let y0 = r.y + r.px_h as i32 + 6;
    for dx in 0..bar_w {
        let v = (2.0 * (dx as f32 + 0.5) / bar_w as f32 - 1.0) * range.limit;
        let c = colormap::color(v, range);
        for dy in 0..BAR_H as i32 {
            put(img, x0 + dx, y0 + dy, c);
        }
    }
    let ly = y0 + BAR_H as i32 + 4;
    let lo = format!("-{}", short(range.limit));
    let hi = format!("+{}", short(range.limit));
    let (lw, zw) = (font::text_width(&hi, TEXT_SCALE) as i32, font::text_width("0", TEXT_SCALE) as i32);
    // Three labels when they fit, else the two ends, else one "±limit" under the middle.
    if bar_w >= 2 * lw + zw + 16 || bar_w >= 2 * lw + 8 {
        text(img, &lo, x0, ly, None);
        text(img, &hi, x0 + bar_w - lw, ly, None);
        if bar_w >= 2 * lw + zw + 16 {
            text(img, "0", x0 + (bar_w - zw) / 2, ly, None);
        }
    } else {
        let pm = format!("±{}", short(range.limit));
        text(img, &pm, x0 + (bar_w - font::text_width(&pm, TEXT_SCALE) as i32) / 2, ly, None);
    }
}

/// Draws the edges of `p` (texel coordinates) on `r` with a 2-pixel brush straddling each edge.
fn outline(img: &mut RgbaImage, p: &Primitive, r: &PanelRect) {
    let v: Vec<(f32, f32)> = p.vertices().iter().map(|v| r.to_pixel(v.pos[0], v.pos[1])).collect();
    let mut seg = |a: (f32, f32), b: (f32, f32)| segment(img, a, b, r.clip);
    match p {
        Primitive::Point(_) => {
            // The texel around the point, at least 9 pixels wide so a single texel stays visible.
            let (cx, cy) = v[0];
            let hx = (0.5 * r.sx).max(4.5);
            let hy = (0.5 * r.sy).max(4.5);
            let c = [(cx - hx, cy - hy), (cx + hx, cy - hy), (cx + hx, cy + hy), (cx - hx, cy + hy)];
            for k in 0..4 {
                seg(c[k], c[(k + 1) % 4]);
            }
        }
        Primitive::Line(_) => seg(v[0], v[1]),
        // Strip order bottom-left, bottom-right, top-left, top-right: walk 0, 1, 3, 2.
        Primitive::Rectangle(_) => {
            for (a, b) in [(0, 1), (1, 3), (3, 2), (2, 0)] {
                seg(v[a], v[b]);
            }
        }
        Primitive::Triangle(_) | Primitive::TwoTriangles(_) => {
            for t in v.chunks(3) {
                for k in 0..3 {
                    seg(t[k], t[(k + 1) % 3]);
                }
            }
        }
    }
}

fn segment(img: &mut RgbaImage, (x0, y0): (f32, f32), (x1, y1): (f32, f32), clip: [i32; 4]) {
    let steps = (x1 - x0).abs().max((y1 - y0).abs()).ceil().max(1.0) as i32;
    for s in 0..=steps {
        let t = s as f32 / steps as f32;
        let (x, y) = ((x0 + (x1 - x0) * t).round() as i32, (y0 + (y1 - y0) * t).round() as i32);
        for (px, py) in [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)] {
            if px >= clip[0] && py >= clip[1] && px < clip[2] && py < clip[3] {
                put(img, px, py, OUTLINE);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::cholesky::fig5_outer_update_triangle;

    fn px(img: &RgbaImage, x: i32, y: i32) -> Rgb {
        let p = img.get_pixel(x as u32, y as u32).0;
        [p[0], p[1], p[2]]
    }

    #[test]
    fn every_texel_shows_its_colour_and_pixels_map_back_to_it() {
        let (w, h) = (5u32, 3u32);
        let values: Vec<f32> = (0..w * h).map(|k| k as f32 - 7.0).collect();
        let frame = Frame {
            status: vec!["TEST".into()],
            panels: vec![Panel {
                title: "A".into(),
                width: w,
                height: h,
                values: &values,
                outline: None,
                grid: (1, 1),
            }],
        };
        let (iw, ih) = natural_size(1, &[(w, h)], 20.0);
        let img = render(&frame, iw, ih);
        let r = layout(iw, ih, 1, &[(w, h)])[0];
        let range = Range::robust(&values);
        for i in 0..h {
            for j in 0..w {
                let pix = r.pixels_of(j, i);
                assert!(pix.len() >= 100, "texel ({j},{i}) has {} pixels", pix.len());
                for (x, y) in pix {
                    assert_eq!(px(&img, x, y), colormap::color(values[(i * w + j) as usize], range));
                }
            }
        }
    }

    #[test]
    fn large_textures_are_subsampled_into_the_box() {
        let r = layout(800, 600, 2, &[(1024, 1024), (1024, 1)]);
        assert!(r[0].px_w <= 800 && r[0].sx < 1.0);
        // The last pixel shows a texel within one pixel's span of the last column.
        let (j, _) = r[0].texel_of(r[0].x + r[0].px_w as i32 - 1, r[0].y).expect("inside");
        assert!(j as f32 >= 1023.0 - 1.0 / r[0].sx, "{j}");
        assert_eq!(r[0].texel_of(r[0].x + r[0].px_w as i32, r[0].y), None);
        assert!(r[1].px_h >= 24, "vectors stay visible");
    }

    #[test]
    fn the_oversized_triangle_is_outlined_and_its_inside_is_not() {
        let m = 8u32;
        let values = vec![1.0f32; (m * m) as usize];
        let tri = fig5_outer_update_triangle(0, m);
        let frame = Frame {
            status: vec![],
            panels: vec![Panel {
                title: "T".into(),
                width: m,
                height: m,
                values: &values,
                outline: Some(tri),
                grid: (1, 1),
            }],
        };
        let img = render(&frame, 400, 400);
        let r = layout(400, 400, 0, &[(m, m)])[0];
        let v = tri.vertices();
        for k in 0..3 {
            let (a, b) = (v[k].pos, v[(k + 1) % 3].pos);
            let (x, y) = r.to_pixel((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0);
            assert_eq!(px(&img, x.round() as i32, y.round() as i32), OUTLINE, "edge {k}");
        }
        // Texel (3, 6) is inside, (6, 2) outside: neither centre is on the outline.
        for (j, i) in [(3.5, 6.5), (6.5, 2.5)] {
            let (x, y) = r.to_pixel(j, i);
            assert_ne!(px(&img, x as i32, y as i32), OUTLINE);
        }
    }
}
