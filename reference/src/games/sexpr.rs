//! A minimal reader for the Scheme lists Super-TTT speaks: lists, atoms and the dotted pair's `.`.

/// One datum. A quote (`'x`) is read as the bare atom: the handout writes its data as quoted source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sx {
    List(Vec<Sx>),
    Atom(String),
    Dot,
}

/// Reads exactly one datum from `text`; `Err` names what is wrong.
pub fn parse(text: &str) -> Result<Sx, String> {
    let tokens = tokenize(text);
    let mut pos = 0;
    let sx = read(&tokens, &mut pos)?;
    if pos != tokens.len() {
        return Err(format!(
            "unexpected `{}` after the end of the list",
            tokens[pos]
        ));
    }
    Ok(sx)
}

fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        match ch {
            '(' | ')' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(ch.to_string());
            }
            '\'' if cur.is_empty() => {}
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn read(tokens: &[String], pos: &mut usize) -> Result<Sx, String> {
    let Some(tok) = tokens.get(*pos) else {
        return Err("the text ends before the list does".into());
    };
    *pos += 1;
    match tok.as_str() {
        "(" => {
            let mut items = Vec::new();
            loop {
                match tokens.get(*pos).map(String::as_str) {
                    None => return Err("a `(` is never closed".into()),
                    Some(")") => {
                        *pos += 1;
                        return Ok(Sx::List(items));
                    }
                    Some(_) => items.push(read(tokens, pos)?),
                }
            }
        }
        ")" => Err("unexpected `)`".into()),
        "." => Ok(Sx::Dot),
        atom => Ok(Sx::Atom(atom.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pairs_and_quotes() {
        let sx = parse("((1 . 5) ('x))").unwrap();
        let a = |s: &str| Sx::Atom(s.into());
        assert_eq!(
            sx,
            Sx::List(vec![
                Sx::List(vec![a("1"), Sx::Dot, a("5")]),
                Sx::List(vec![a("x")]),
            ])
        );
        assert!(parse("((1 . 5)").is_err());
        assert!(parse("(1) 2").is_err());
    }
}
