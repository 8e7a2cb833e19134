//! Durations (`"2s"`, `"500ms"`, `"1m"`) and sizes (`"512M"`) as `grader.toml`, `suite.toml`,
//! `calibration.toml`, `[arena]` and `--move-limit` write them: one parser, each file's rules named.
//!
//! By hand rather than `humantime`/`bytesize`: those read `1.5s` as an error and `512M` as 512 000 000
//! bytes, where every file here means 1.5 seconds and 512 MiB.

use std::time::Duration;

/// What a duration may be where it is written. The two sets differ only where a file has always
/// differed: each keeps accepting exactly what it accepted before the parsers were one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DurationRules {
    /// `0s` is a duration (an arena's zero margin); a run's limit must be positive.
    pub zero: bool,
    /// `min` as well as `m` for minutes.
    pub min_word: bool,
    /// The number as Rust reads an `f64` (`+2s`, `1e3ms`), not only digits and a point.
    pub float_syntax: bool,
    /// Only durations shorter than this.
    pub below: Option<Duration>,
}

/// Run limits in `grader.toml`, `suite.toml` and `calibration.toml`: positive, under a day.
pub const LIMIT: DurationRules = DurationRules {
    zero: false,
    min_word: false,
    float_syntax: true,
    below: Some(Duration::from_secs(86_400)),
};

/// `[arena]` times and `--move-limit`: zero allowed (no margin), `min` for minutes.
pub const ARENA: DurationRules = DurationRules {
    zero: true,
    min_word: true,
    float_syntax: false,
    below: None,
};

/// `"2s"`, `"500ms"`, `"1.5s"`, `"2m"` → a duration. Bare numbers are rejected: the unit must be said.
///
/// # Errors
/// The message names the text and says how to write one (callers may word their own).
pub fn parse_duration(s: &str, rules: DurationRules) -> Result<Duration, String> {
    let s = s.trim();
    let minutes = if rules.min_word {
        s.strip_suffix("min")
    } else {
        None
    };
    let (number, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = minutes.or_else(|| s.strip_suffix('m')) {
        (n, 60.0)
    } else {
        return Err(format!(
            "bad duration `{s}`\nhint: write a number with a unit: `500ms`, `2s`, `1m`"
        ));
    };
    let number = number.trim();
    let plain = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.');
    let value = number
        .parse::<f64>()
        .ok()
        .filter(|v| (rules.float_syntax || plain) && (*v > 0.0 || (rules.zero && *v == 0.0)))
        .and_then(|v| Duration::try_from_secs_f64(v * scale).ok())
        .filter(|d| rules.below.is_none_or(|below| *d < below));
    value.ok_or_else(|| {
        format!(
            "bad duration `{s}`\nhint: write a positive number with a unit: `500ms`, `2s`, `1m`"
        )
    })
}

/// `"512M"`, `"64K"`, `"2G"`, `"1000"` → bytes (binary multiples).
///
/// # Errors
/// Anything but a positive whole number with an optional K, M or G, with a hint.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (number, scale) = match t.chars().last() {
        Some('K' | 'k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&t[..t.len() - 1], 1 << 20),
        Some('G' | 'g') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    number
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            format!("bad size `{t}`\nhint: write a positive whole number with K, M or G: `512M`")
        })
}

/// `d` in whole milliseconds, rounded to the nearest (a half rounds up): what result.json records, so
/// that a sum of many short runs is not biased low as truncation would make it (22 runs of 0.9 ms each
/// are 20 ms, not 0).
#[must_use]
pub fn nearest_ms(d: Duration) -> u64 {
    u64::try_from((d.as_micros() + 500) / 1000).unwrap_or(u64::MAX)
}

/// The most points a group, column, mark or track part may be worth: no course grades out of more,
/// and a larger number is a slip (`1e308` would make every total infinite, shown as `/inf`).
pub const MAX_POINTS: f64 = 10_000.0;

/// Points as a suite or course writes them: a finite number from 0 to [`MAX_POINTS`].
///
/// # Errors
/// What is wrong with `p`, with a hint.
pub fn check_points(p: f64) -> Result<(), String> {
    if !p.is_finite() {
        return Err(format!(
            "`{p}` is not a number of points\nhint: write a number such as `5` or `15`"
        ));
    }
    if p < 0.0 {
        return Err(format!("points `{}` must be zero or more", points(p)));
    }
    if p > MAX_POINTS {
        return Err(format!("points `{p:e}` are more than {MAX_POINTS} (a slip?)\nhint: points are a group's weight, such as `5` or `15`"));
    }
    Ok(())
}

/// Points as people write them: `15`, `7.5`, `3.33`.
#[must_use]
pub fn points(p: f64) -> String {
    let rounded = (p * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_round_to_the_nearest() {
        assert_eq!(nearest_ms(Duration::from_micros(900)), 1);
        assert_eq!(nearest_ms(Duration::from_micros(1499)), 1);
        assert_eq!(nearest_ms(Duration::from_micros(1500)), 2);
        assert_eq!(nearest_ms(Duration::from_micros(499)), 0);
        assert_eq!(nearest_ms(Duration::MAX), u64::MAX);
    }

    #[test]
    fn durations_and_sizes() {
        let limit = |s| parse_duration(s, LIMIT);
        assert_eq!(limit("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(limit("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(limit("1m"), Ok(Duration::from_secs(60)));
        assert!(limit("2").unwrap_err().contains("`2`"));
        assert!(limit("-1s").is_err());
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").unwrap_err().contains("`lots`"));
    }

    #[test]
    fn arena_durations() {
        let arena = |s| parse_duration(s, ARENA).ok();
        assert_eq!(arena("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(arena("50ms"), Some(Duration::from_millis(50)));
        assert_eq!(arena("2m"), Some(Duration::from_secs(120)));
        assert_eq!(arena("fast"), None);
        assert_eq!(arena("5"), None);
    }

    #[test]
    fn where_the_two_rule_sets_differ() {
        let (limit, arena) = (
            |s| parse_duration(s, LIMIT).ok(),
            |s| parse_duration(s, ARENA).ok(),
        );
        // A zero margin is a setting; a zero limit is a mistake.
        assert_eq!(arena("0s"), Some(Duration::ZERO));
        assert_eq!(limit("0s"), None);
        assert_eq!(arena("2min"), Some(Duration::from_secs(120)));
        assert_eq!(limit("2min"), None);
        assert_eq!(limit("+1e3ms"), Some(Duration::from_secs(1)));
        assert_eq!(arena("+1e3ms"), None);
        assert_eq!(limit("1441m"), None);
        assert_eq!(arena("1441m"), Some(Duration::from_secs(1441 * 60)));
        // Too long for a `Duration` is an error, never a panic.
        assert_eq!(arena("99999999999999999999999s"), None);
        for both in ["1.5 s", " 2 ms ", ".5s", "1.s"] {
            assert!(limit(both).is_some() && arena(both).is_some(), "{both}");
        }
        for neither in [
            "",
            "s",
            ".s",
            "1.2.3s",
            "5 5s",
            "2 seconds",
            "-1s",
            "nan s",
            "infs",
        ] {
            assert!(
                limit(neither).is_none() && arena(neither).is_none(),
                "{neither}"
            );
        }
    }

    #[test]
    fn a_missing_unit_and_a_bad_number_have_their_own_hints() {
        let e = parse_duration("2", LIMIT).unwrap_err();
        assert!(
            e.ends_with("hint: write a number with a unit: `500ms`, `2s`, `1m`"),
            "{e}"
        );
        let e = parse_duration("2 seconds", LIMIT).unwrap_err();
        assert_eq!(
            e,
            "bad duration `2 seconds`\nhint: write a positive number with a unit: `500ms`, `2s`, `1m`"
        );
    }
}
