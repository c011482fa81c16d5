//! Where each texture's heatmap lands in a frame (pure layout, no pixels).

use super::font;

/// Font pixels per glyph pixel.
pub const TEXT_SCALE: u32 = 2;
/// Height of one line of text.
pub const LINE_H: u32 = font::GLYPH_H * TEXT_SCALE + 6;
/// Space around panels; the part of an oversized primitive outside its texture is drawn here.
pub const MARGIN: u32 = 24;
pub(super) const BAR_H: u32 = 10;
pub(super) const LEGEND_H: u32 = BAR_H + 6 + LINE_H;
/// Thin textures (vectors) are drawn at least this many pixels thick.
const MIN_THICKNESS: f32 = 24.0;
/// Narrowest box a panel gets in [`natural_size`].
const MIN_BOX_W: u32 = 200;
/// Narrowest frame with a status line in [`natural_size`] (room for about 70 characters).
const MIN_STATUS_W: u32 = 900;

/// Where a texture lands in the image: texel (x, y) covers pixels
/// [x0 + x·sx, x0 + (x+1)·sx) × [y0 + y·sy, y0 + (y+1)·sy); row 0 is at the top, as in a matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelRect {
    pub x: i32,
    pub y: i32,
    /// Size of the heatmap in pixels.
    pub px_w: u32,
    pub px_h: u32,
    /// Pixels per texel along x and y.
    pub sx: f32,
    pub sy: f32,
    /// Texture size in texels.
    pub width: u32,
    pub height: u32,
    /// The box the panel owns (its outline is clipped to it): x0, y0, x1, y1 (exclusive).
    pub clip: [i32; 4],
}

impl PanelRect {
    /// The texel shown at pixel (px, py), if the pixel is inside the heatmap. Each pixel shows
    /// the texel under its centre (nearest), so large textures are subsampled, small ones enlarged.
    pub fn texel_of(&self, px: i32, py: i32) -> Option<(u32, u32)> {
        let (dx, dy) = (px - self.x, py - self.y);
        if dx < 0 || dy < 0 || dx >= self.px_w as i32 || dy >= self.px_h as i32 {
            return None;
        }
        let j = (((dx as f32 + 0.5) / self.sx) as u32).min(self.width - 1);
        let i = (((dy as f32 + 0.5) / self.sy) as u32).min(self.height - 1);
        Some((j, i))
    }

    /// Texel coordinates (x = column, y = row) to pixel coordinates.
    pub fn to_pixel(self, x: f32, y: f32) -> (f32, f32) {
        (self.x as f32 + x * self.sx, self.y as f32 + y * self.sy)
    }

    /// The pixels that show texel (j, i) (empty when the texel is subsampled away).
    pub fn pixels_of(&self, j: u32, i: u32) -> Vec<(i32, i32)> {
        let (x0, y0) = self.to_pixel(j as f32, i as f32);
        let (x1, y1) = self.to_pixel(j as f32 + 1.0, i as f32 + 1.0);
        let mut out = Vec::new();
        for py in (y0.floor() as i32 - 1)..=(y1.ceil() as i32 + 1) {
            for px in (x0.floor() as i32 - 1)..=(x1.ceil() as i32 + 1) {
                if self.texel_of(px, py) == Some((j, i)) {
                    out.push((px, py));
                }
            }
        }
        out
    }
}

fn top_of_panels(status_lines: usize) -> u32 {
    let status = if status_lines > 0 { status_lines as u32 * LINE_H + MARGIN / 2 } else { 0 };
    MARGIN / 2 + status + LINE_H
}

/// Places `sizes` (texels) side by side in a `width × height` image under `status_lines` lines.
pub fn layout(width: u32, height: u32, status_lines: usize, sizes: &[(u32, u32)]) -> Vec<PanelRect> {
    let n = sizes.len().max(1) as u32;
    let top = top_of_panels(status_lines);
    let bw = (width.saturating_sub(MARGIN * (n + 1)) / n).max(1);
    let bh = height.saturating_sub(top + LEGEND_H + MARGIN).max(1);
    sizes
        .iter()
        .enumerate()
        .map(|(k, &(w, h))| {
            let (w, h) = (w.max(1), h.max(1));
            let mut s = (bw as f32 / w as f32).min(bh as f32 / h as f32);
            if s >= 1.0 {
                s = s.floor();
            }
            let (mut sx, mut sy) = (s, s);
            if h == 1 {
                sy = sy.max(MIN_THICKNESS.min(bh as f32));
            }
            if w == 1 {
                sx = sx.max(MIN_THICKNESS.min(bw as f32));
            }
            let px_w = ((w as f32 * sx).round() as u32).clamp(1, bw);
            let px_h = ((h as f32 * sy).round() as u32).clamp(1, bh);
            let box_x = (MARGIN + k as u32 * (bw + MARGIN)) as i32;
            let x = box_x + (bw - px_w) as i32 / 2;
            let y = top as i32;
            let half = MARGIN as i32 / 2;
            PanelRect {
                x,
                y,
                px_w,
                px_h,
                sx,
                sy,
                width: w,
                height: h,
                clip: [box_x - half, y - half, box_x + bw as i32 + half, y + px_h as i32 + half],
            }
        })
        .collect()
}

/// An image size that shows `sizes` at about `texel_px` pixels per texel.
pub fn natural_size(status_lines: usize, sizes: &[(u32, u32)], texel_px: f32) -> (u32, u32) {
    let n = sizes.len().max(1) as u32;
    let bw = sizes.iter().map(|&(w, _)| (w as f32 * texel_px).ceil() as u32).max().unwrap_or(0).max(MIN_BOX_W);
    let bh = sizes
        .iter()
        .map(|&(_, h)| (h as f32 * texel_px).ceil().max(MIN_THICKNESS) as u32)
        .max()
        .unwrap_or(MIN_THICKNESS as u32);
    let min_w = if status_lines > 0 { MIN_STATUS_W } else { 0 };
    ((MARGIN * (n + 1) + n * bw).max(min_w), top_of_panels(status_lines) + bh + LEGEND_H + MARGIN)
}
