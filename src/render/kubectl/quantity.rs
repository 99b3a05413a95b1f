//! `resource.Quantity` from k8s.io/apimachinery, as far as `kubectl describe node` needs it:
//! parsing, adding, `MilliValue`/`Value`, and `String()` (its canonical form: `100m`, `64Mi`,
//! `1k`, `1536Ki`).

/// How a quantity prints (its `Format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// `1k`, `100m`.
    #[default]
    DecimalSi,
    /// `64Mi`, `16374584Ki`.
    BinarySi,
    /// `1e3`.
    DecimalExponent,
}

/// A quantity, held exactly in billionths (the API rounds anything finer up to a billionth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quantity {
    nanos: i128,
    format: Format,
}

const NANO: i128 = 1_000_000_000;

impl Quantity {
    /// `resource.ParseQuantity`: a decimal number with an optional SI (`m`, `k`, `M`...),
    /// binary (`Ki`, `Mi`...) or exponent (`e3`) suffix. `None` for anything else.
    pub fn parse(s: &str) -> Option<Quantity> {
        let s = s.trim();
        let b = s.as_bytes();
        let mut i = 0;
        let negative = match b.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        let int_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let int_part = &s[int_start..i];
        let mut frac_part = "";
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let f = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            frac_part = &s[f..i];
        }
        if int_part.is_empty() && frac_part.is_empty() {
            return None;
        }
        let (base2, exp, format) = match &s[i..] {
            "" => (0, 0, Format::DecimalSi),
            "n" => (0, -9, Format::DecimalSi),
            "u" => (0, -6, Format::DecimalSi),
            "m" => (0, -3, Format::DecimalSi),
            "k" => (0, 3, Format::DecimalSi),
            "M" => (0, 6, Format::DecimalSi),
            "G" => (0, 9, Format::DecimalSi),
            "T" => (0, 12, Format::DecimalSi),
            "P" => (0, 15, Format::DecimalSi),
            "E" => (0, 18, Format::DecimalSi),
            "Ki" => (10, 0, Format::BinarySi),
            "Mi" => (20, 0, Format::BinarySi),
            "Gi" => (30, 0, Format::BinarySi),
            "Ti" => (40, 0, Format::BinarySi),
            "Pi" => (50, 0, Format::BinarySi),
            "Ei" => (60, 0, Format::BinarySi),
            e if e.len() > 1 && matches!(e.as_bytes()[0], b'e' | b'E') => {
                (0, e[1..].parse::<i32>().ok().filter(|x| (-30..=30).contains(x))?, Format::DecimalExponent)
            }
            _ => return None,
        };
        // digits × 10^(exp − len(frac)) × 2^base2, in billionths, rounded up.
        let digits = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        if digits.len() > 30 {
            return None;
        }
        let mantissa: i128 = if digits.is_empty() { 0 } else { digits.parse().ok()? };
        let scale = exp + 9 - frac_part.len() as i32;
        let mut value = mantissa.checked_mul(1i128.checked_shl(base2)?)?;
        if scale >= 0 {
            value = value.checked_mul(10i128.checked_pow(scale as u32)?)?;
        } else {
            let d = 10i128.checked_pow(scale.unsigned_abs())?;
            value = value / d + i128::from(value % d != 0);
        }
        // A binary quantity below one prints as a decimal one.
        let format = if format == Format::BinarySi && value > 0 && value < NANO { Format::DecimalSi } else { format };
        Some(Quantity { nanos: if negative { -value } else { value }, format })
    }

    /// Whether the quantity is zero.
    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    /// `q.Add(y)`: the sum keeps this quantity's format, unless this one is zero.
    pub fn add(&mut self, y: &Quantity) {
        if self.nanos == 0 {
            self.format = y.format;
        }
        self.nanos += y.nanos;
    }

    /// `MilliValue()`: thousandths, rounded up.
    pub fn milli_value(&self) -> i64 {
        ceil_div(self.nanos, 1_000_000)
    }

    /// `Value()`: whole units, rounded up.
    pub fn value(&self) -> i64 {
        ceil_div(self.nanos, NANO)
    }

    /// `String()`: the canonical form.
    pub fn canonical(&self) -> String {
        if self.nanos == 0 {
            return "0".into();
        }
        let mut format = self.format;
        if format == Format::BinarySi && (self.nanos.abs() < 1024 * NANO || self.nanos % NANO != 0) {
            format = Format::DecimalSi;
        }
        if format == Format::BinarySi {
            let mut n = self.nanos / NANO;
            let mut k = 0;
            while n % 1024 == 0 && k < 7 {
                n /= 1024;
                k += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"].get(k).copied().unwrap_or("");
            return decimal(n) + suffix;
        }
        let (mut n, mut exp) = (self.nanos, -9i32);
        while n % 10 == 0 {
            n /= 10;
            exp += 1;
        }
        match exp.rem_euclid(3) {
            1 => {
                n *= 10;
                exp -= 1;
            }
            2 => {
                n *= 100;
                exp -= 2;
            }
            _ => {}
        }
        let suffix = match format {
            Format::DecimalExponent if exp == 0 => String::new(),
            Format::DecimalExponent => format!("e{exp}"),
            _ => match exp {
                -9 => "n",
                -6 => "u",
                -3 => "m",
                3 => "k",
                6 => "M",
                9 => "G",
                12 => "T",
                15 => "P",
                18 => "E",
                _ => "",
            }
            .to_string(),
        };
        decimal(n) + &suffix
    }
}

/// `n` in decimal (written out by hand: formatting 128-bit integers brings in their own code).
fn decimal(n: i128) -> String {
    let mut digits = Vec::new();
    let mut m = n.unsigned_abs();
    loop {
        digits.push(b'0' + (m % 10) as u8);
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        digits.push(b'-');
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

fn ceil_div(n: i128, d: i128) -> i64 {
    let q = n.div_euclid(d) + i128::from(n.rem_euclid(d) != 0);
    q.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// Go's `int64(f)` on amd64: truncation toward zero, and the "integer indefinite" value
/// (`math.MinInt64`) for NaN, infinities and anything out of range (a node with no allocatable
/// CPU makes kubectl print `-9223372036854775808%`).
pub fn go_int64(f: f64) -> i64 {
    if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) { f as i64 } else { i64::MIN }
}

/// kubectl's percentage: `int64(float64(part) / float64(whole) * 100)`.
pub fn percent(part: i64, whole: i64) -> i64 {
    go_int64(part as f64 / whole as f64 * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Quantity::parse(s).map(|q| q.canonical()).unwrap_or_else(|| "<invalid>".into())
    }

    #[test]
    fn canonical_forms_match_apimachinery() {
        for (input, want) in [
            ("0", "0"),
            ("4", "4"),
            ("110", "110"),
            ("100m", "100m"),
            ("1000m", "1"),
            ("1500m", "1500m"),
            ("0.5", "500m"),
            ("1000", "1k"),
            ("1500", "1500"),
            ("64Mi", "64Mi"),
            ("1024Ki", "1Mi"),
            ("1536Ki", "1536Ki"),
            ("16374584Ki", "16374584Ki"),
            ("102626232Ki", "102626232Ki"),
            ("94580335412", "94580335412"),
            ("512", "512"),
            ("1e3", "1e3"),
            ("1.5Gi", "1536Mi"),
            ("0.5Ki", "512"),
            ("12e0", "12"),
        ] {
            assert_eq!(canon(input), want, "{input}");
        }
        for bad in ["", "abc", "1x", "--1", ".", "1Zi"] {
            assert!(Quantity::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn sums_keep_the_first_format_and_values_round_up() {
        let mut q = Quantity::parse("64Mi").unwrap();
        q.add(&Quantity::parse("64Mi").unwrap());
        assert_eq!(q.canonical(), "128Mi");
        let mut cpu = Quantity::default();
        cpu.add(&Quantity::parse("100m").unwrap());
        cpu.add(&Quantity::parse("250m").unwrap());
        assert_eq!(cpu.canonical(), "350m");
        assert_eq!(cpu.milli_value(), 350);
        assert_eq!(Quantity::parse("1n").unwrap().milli_value(), 1);
        assert_eq!(Quantity::parse("64Mi").unwrap().value(), 67_108_864);
        assert_eq!(Quantity::parse("16272184Ki").unwrap().value(), 16_662_716_416);
    }

    #[test]
    fn percentages_truncate_like_go_floats() {
        assert_eq!(percent(100, 4000), 2);
        // 0.29 * 100 is 28.999999999999996 in float64.
        assert_eq!(percent(29, 100), 28);
        assert_eq!(percent(0, 4000), 0);
        assert_eq!(percent(1, 0), i64::MIN);
        assert_eq!(percent(0, 0), i64::MIN);
    }
}
