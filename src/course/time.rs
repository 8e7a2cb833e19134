//! Times as course files and LMS downloads write them, read into instants (`jiff`, with its own copy of
//! the time-zone database, so a due date means the same on every machine).

use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// A TOML value that is a time: an offset date-time (`2021-03-30T23:59:00+10:30`), a local one read
/// in `tz` (only when the course names its `timezone`, `zoned`), or a string jiff reads
/// (`"2021-03-30T23:59:00[Australia/Adelaide]"`).
///
/// # Errors
/// Anything else, said in a sentence.
pub fn parse_value(v: &toml::Value, tz: &TimeZone, zoned: bool) -> Result<Timestamp, String> {
    let text = match v {
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::String(s) => s.clone(),
        other => return Err(format!("`{other}` is not a date and time")),
    };
    parse_text(&text, tz, zoned)
}

/// A time written as text: with an offset or a `[zone]` it is that instant; without, it is read in
/// `tz`, which must have been chosen (`zoned`) so that a course never silently means UTC.
///
/// # Errors
/// Not a date and time, or a local one without a chosen time zone.
pub fn parse_text(text: &str, tz: &TimeZone, zoned: bool) -> Result<Timestamp, String> {
    let t = text.trim();
    if let Ok(z) = t.parse::<jiff::Zoned>() {
        return Ok(z.timestamp());
    }
    if let Ok(ts) = t.parse::<Timestamp>() {
        return Ok(ts);
    }
    let civil = t
        .parse::<DateTime>()
        .map_err(|_| format!("`{t}` is not a date and time\nhint: write `2021-03-30T23:59:00`, with an offset (`+10:30`) or the course's `timezone`"))?;
    if !zoned {
        return Err(format!(
            "`{t}` has no UTC offset and the course sets no `timezone`\nhint: add `timezone = \"Australia/Adelaide\"` (the course's), or write the offset"
        ));
    }
    civil
        .to_zoned(tz.clone())
        .map(|z| z.timestamp())
        .map_err(|e| format!("`{t}`: {e}"))
}

/// A time an LMS wrote: RFC 3339; Ruby's `2023-12-02 02:52:07.938335000 Z` or `… -07:00` (Gradescope);
/// `2024-01-30 12:34:56 UTC` (GitHub Classroom); a plain date and time, read in `tz`.
///
/// # Errors
/// None of those.
pub fn parse_lms(text: &str, tz: &TimeZone) -> Result<Timestamp, String> {
    let t = text.trim();
    if let Ok(ts) = parse_text(t, tz, true) {
        return Ok(ts);
    }
    // `date time zone`: the zone a `Z`, `UTC`, or an offset.
    let mut words: Vec<&str> = t.split_whitespace().collect();
    if words.len() == 3 {
        let zone = match words[2] {
            "Z" | "UTC" | "GMT" => "Z".to_string(),
            z if z.starts_with(['+', '-']) => z.to_string(),
            _ => String::new(),
        };
        if !zone.is_empty() {
            words.truncate(2);
            let joined = format!("{}T{}{zone}", words[0], words[1]);
            if let Ok(ts) = joined.parse::<Timestamp>() {
                return Ok(ts);
            }
        }
    }
    Err(format!("`{t}` is not a time this grader can read"))
}

/// More time: `48h`, `2d`, `90m`, `30s` (a whole number and a unit).
///
/// # Errors
/// Anything else.
pub fn parse_span(text: &str) -> Result<SignedDuration, String> {
    let t = text.trim();
    let (number, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let seconds = match unit.trim() {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "`{t}` is not a length of time\nhint: write `48h`, `2d` or `30m`"
            ))
        }
    };
    let n: i64 = number
        .parse()
        .map_err(|_| format!("`{t}` is not a length of time\nhint: write `48h`, `2d` or `30m`"))?;
    Ok(SignedDuration::from_secs(n.saturating_mul(seconds)))
}

/// An instant as result.json and submissions.toml write it: RFC 3339 in UTC, to the second.
#[must_use]
pub fn show(t: Timestamp) -> String {
    t.round(jiff::Unit::Second)
        .unwrap_or(t)
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lms_times_in_their_own_formats() {
        let tz = TimeZone::get("America/Chicago").unwrap();
        let utc = |s: &str| parse_lms(s, &tz).map(show);
        assert_eq!(
            utc("2023-12-02 02:52:07.938335000 Z").unwrap(),
            "2023-12-02T02:52:08Z"
        );
        assert_eq!(
            utc("2023-12-02 02:52:07.938335000 -07:00").unwrap(),
            "2023-12-02T09:52:08Z"
        );
        assert_eq!(
            utc("2024-01-30 12:34:56 UTC").unwrap(),
            "2024-01-30T12:34:56Z"
        );
        assert_eq!(utc("2024-01-30T12:34:56Z").unwrap(), "2024-01-30T12:34:56Z");
        // A plain time is the course's: Chicago in May is UTC-5.
        assert_eq!(utc("2004-05-06 00:00:00").unwrap(), "2004-05-06T05:00:00Z");
        assert!(utc("last tuesday").is_err());
        assert_eq!(parse_span("2d").unwrap(), SignedDuration::from_hours(48));
        assert_eq!(parse_span("90m").unwrap(), SignedDuration::from_mins(90));
        assert!(parse_span("2 weeks").is_err());
        assert!(parse_span("h").is_err());
    }
}
