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

/// A quantity, held in thousandths: exact for every quantity a Node or Pod carries (CPU in
/// millicores at the finest, memory and storage in bytes), where apimachinery keeps billionths;
/// anything finer than a thousandth rounds up to one, and a quantity beyond ±2^63 thousandths
/// (8 EiB) does not parse. 64-bit arithmetic keeps 128-bit integer code out of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quantity {
    milli: i64,
    format: Format,
}

impl Quantity {
    /// `resource.ParseQuantity`: a decimal number with an optional SI (`m`, `k`, `M`...),
    /// binary (`Ki`, `Mi`...) or exponent (`e3`) suffix. `None` for anything else.
    pub fn parse(s: &str) -> Option<Quantity> {
        let s = s.trim();
        let (negative, unsigned) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let number_end = unsigned.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(unsigned.len());
        let (number, suffix) = unsigned.split_at(number_end);
        let (int_part, frac_part) = number.split_once('.').unwrap_or((number, ""));
        if (int_part.is_empty() && frac_part.is_empty()) || frac_part.contains('.') {
            return None;
        }
        let (base2, exp, format) = match suffix {
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
        // digits × 10^(exp − len(frac)) × 2^base2, in thousandths, rounded up.
        let mut value: i64 = 0;
        for d in int_part.bytes().chain(frac_part.bytes()) {
            value = value.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
        }
        value = value.checked_mul(1i64.checked_shl(base2)?)?;
        let scale = exp + 3 - frac_part.len() as i32;
        if scale >= 0 {
            value = value.checked_mul(10i64.checked_pow(scale as u32)?)?;
        } else {
            let d = 10i64.checked_pow(scale.unsigned_abs()).unwrap_or(i64::MAX);
            value = value / d + i64::from(value % d != 0);
        }
        // A binary quantity below one prints as a decimal one.
        let format = if format == Format::BinarySi && value > 0 && value < 1000 { Format::DecimalSi } else { format };
        Some(Quantity { milli: if negative { -value } else { value }, format })
    }

    /// Whether the quantity is zero.
    pub fn is_zero(&self) -> bool {
        self.milli == 0
    }

    /// `q.Add(y)`: the sum keeps this quantity's format, unless this one is zero.
    pub fn add(&mut self, y: &Quantity) {
        if self.milli == 0 {
            self.format = y.format;
        }
        self.milli = self.milli.saturating_add(y.milli);
    }

    /// `MilliValue()`: thousandths.
    pub fn milli_value(&self) -> i64 {
        self.milli
    }

    /// `Value()`: whole units, rounded up.
    pub fn value(&self) -> i64 {
        self.milli.div_euclid(1000) + i64::from(self.milli.rem_euclid(1000) != 0)
    }

    /// `String()`: the canonical form.
    pub fn canonical(&self) -> String {
        if self.milli == 0 {
            return "0".into();
        }
        let mut format = self.format;
        if format == Format::BinarySi && (self.milli.unsigned_abs() < 1024 * 1000 || self.milli % 1000 != 0) {
            format = Format::DecimalSi;
        }
        if format == Format::BinarySi {
            let mut n = self.milli / 1000;
            let mut k = 0;
            while n % 1024 == 0 && k < 6 {
                n /= 1024;
                k += 1;
            }
            return n.to_string() + ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][k];
        }
        let (mut n, mut exp) = (self.milli, -3i32);
        while n % 10 == 0 {
            n /= 10;
            exp += 1;
        }
        // Down to a multiple of three (a value this large has at most 19 digits, so it fits).
        while exp.rem_euclid(3) != 0 {
            n *= 10;
            exp -= 1;
        }
        let suffix = match format {
            Format::DecimalExponent if exp == 0 => String::new(),
            Format::DecimalExponent => ["e", &exp.to_string()].concat(),
            _ => match exp {
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
        n.to_string() + &suffix
    }
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
        // Finer than a thousandth rounds up to one (apimachinery's MilliValue does the same).
        assert_eq!(Quantity::parse("1n").unwrap().milli_value(), 1);
        assert_eq!(Quantity::parse("1n").unwrap().canonical(), "1m");
        assert_eq!(Quantity::parse("-1").unwrap().canonical(), "-1");
        assert_eq!(Quantity::parse("1.5").unwrap().milli_value(), 1500);
        assert!(Quantity::parse("8Ei").is_none(), "beyond 2^63 thousandths");
        assert!(Quantity::parse("1.2.3").is_none());
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
