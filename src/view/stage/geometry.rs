//! The stage's geometry: points, rectangles and the routes packets travel along, in the user
//! units of the view box, and how wide the stage's text is estimated to be.

/// Estimated advance of one character of the stage's sans-serif text (11.5 px), in user units
/// (measured with DejaVu Sans, among the widest system fonts).
pub(super) const CH_SANS: f32 = 5.7;
/// Estimated advance of one character of the stage's monospace text (10 px).
pub(super) const CH_MONO: f32 = 6.1;

/// A point, in user units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

/// A rectangle, in user units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub(super) fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    pub fn cx(&self) -> f32 {
        self.x + self.w / 2.0
    }
    pub fn cy(&self) -> f32 {
        self.y + self.h / 2.0
    }
    /// Whether the two rectangles overlap (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }
    /// Whether `o` lies inside this rectangle.
    pub fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x - 0.01
            && o.y >= self.y - 0.01
            && o.right() <= self.right() + 0.01
            && o.bottom() <= self.bottom() + 0.01
    }
}

/// A polyline requests travel along, from the sender (fraction 0) to the API server (1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    pub points: Vec<Pt>,
}

impl Route {
    pub(super) fn new(points: Vec<Pt>) -> Route {
        Route { points }
    }

    /// The route's length.
    pub fn length(&self) -> f32 {
        self.points.windows(2).map(|w| dist(w[0], w[1])).sum()
    }

    /// The point at `frac` (0..=1) of the length.
    pub fn at(&self, frac: f32) -> Pt {
        let Some(first) = self.points.first() else { return Pt::default() };
        let mut left = self.length() * frac.clamp(0.0, 1.0);
        for w in self.points.windows(2) {
            let d = dist(w[0], w[1]);
            if left <= d && d > 0.0 {
                let k = left / d;
                return Pt { x: w[0].x + (w[1].x - w[0].x) * k, y: w[0].y + (w[1].y - w[0].y) * k };
            }
            left -= d;
        }
        *self.points.last().unwrap_or(first)
    }

    /// Whether the segment at `frac` runs more up-down than sideways.
    pub fn vertical_at(&self, frac: f32) -> bool {
        let mut left = self.length() * frac.clamp(0.0, 1.0);
        for w in self.points.windows(2) {
            let d = dist(w[0], w[1]);
            if left <= d {
                return (w[1].y - w[0].y).abs() >= (w[1].x - w[0].x).abs();
            }
            left -= d;
        }
        true
    }

    /// The part of the route between two fractions, as a polyline.
    pub fn slice(&self, from: f32, to: f32) -> Vec<Pt> {
        let total = self.length();
        let (a, b) = (total * from.clamp(0.0, 1.0), total * to.clamp(0.0, 1.0));
        let mut out = vec![self.at(from)];
        let mut walked = 0.0;
        for w in self.points.windows(2) {
            walked += dist(w[0], w[1]);
            if walked > a && walked < b {
                out.push(w[1]);
            }
        }
        out.push(self.at(to));
        out
    }
}

pub(super) fn dist(a: Pt, b: Pt) -> f32 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}
pub(super) fn round(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

pub(super) fn round_pt(p: Pt) -> Pt {
    Pt { x: round(p.x), y: round(p.y) }
}

pub(super) fn round_rect(r: Rect) -> Rect {
    Rect { x: round(r.x), y: round(r.y), w: round(r.w), h: round(r.h) }
}

/// `text`, cut with an ellipsis to fit `width` at `ch` per character.
pub(super) fn fit(text: &str, width: f32, ch: f32) -> String {
    let max = ((width / ch).floor() as usize).max(2);
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}
