//! Syntax highlighting of a hand-in's code for the review page: comments, strings, numbers and
//! keywords of the suites' languages (Python, C, C++, Java, Rust, Scheme, Prolog), as HTML spans.
//!
//! Kept by hand: four token kinds over six languages is a small scanner, where syntect would bring a
//! regex engine and its syntax dumps into the binary `grader bundle` ships to every autograder (and
//! its default syntaxes have no Prolog). Text comes in already made safe by `untrusted::block`;
//! every token goes out through `html::entities`.

use crate::report::html::entities;

/// How one language writes what is highlighted.
struct Lang {
    line_comment: &'static [&'static str],
    block_comment: Option<(&'static str, &'static str)>,
    quotes: &'static [char],
    /// Characters an identifier may hold besides letters, digits and `_`.
    ident_extra: &'static str,
    keywords: &'static [&'static str],
}

const PYTHON: Lang = Lang {
    line_comment: &["#"],
    block_comment: None,
    quotes: &['"', '\''],
    ident_extra: "",
    keywords: &[
        "and", "as", "assert", "break", "class", "continue", "def", "del", "elif", "else",
        "except", "False", "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "None", "nonlocal", "not", "or", "pass", "print", "raise", "return", "self",
        "True", "try", "while", "with", "yield",
    ],
};

const C_LIKE: Lang = Lang {
    line_comment: &["//"],
    block_comment: Some(("/*", "*/")),
    quotes: &['"', '\''],
    ident_extra: "",
    keywords: &[
        "auto",
        "bool",
        "break",
        "case",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "false",
        "final",
        "float",
        "fn",
        "for",
        "if",
        "impl",
        "import",
        "include",
        "int",
        "let",
        "long",
        "match",
        "mut",
        "new",
        "null",
        "nullptr",
        "package",
        "private",
        "protected",
        "pub",
        "public",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "this",
        "true",
        "typedef",
        "unsigned",
        "use",
        "void",
        "while",
    ],
};

const LISP: Lang = Lang {
    line_comment: &[";"],
    block_comment: Some(("#|", "|#")),
    quotes: &['"'],
    ident_extra: "-!?*<>=/+.",
    keywords: &[
        "and", "begin", "case", "cond", "define", "do", "else", "if", "lambda", "let", "let*",
        "letrec", "not", "or", "quote", "set!", "unless", "when",
    ],
};

const PROLOG: Lang = Lang {
    line_comment: &["%"],
    block_comment: Some(("/*", "*/")),
    quotes: &['"', '\''],
    ident_extra: "",
    keywords: &[
        "is",
        "not",
        "fail",
        "true",
        "false",
        "mod",
        "rem",
        "halt",
        "module",
        "use_module",
    ],
};

const PLAIN: Lang = Lang {
    line_comment: &[],
    block_comment: None,
    quotes: &[],
    ident_extra: "",
    keywords: &[],
};

fn lang_of(path: &str) -> &'static Lang {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match ext.as_str() {
        "py" => &PYTHON,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "java" | "rs" | "js" => &C_LIKE,
        "scm" | "ss" | "stk" | "lisp" | "rkt" | "el" => &LISP,
        "pl" | "pro" | "prolog" | "ci" | "cilog" => &PROLOG,
        _ => &PLAIN,
    }
}

/// `text` (already safe: `untrusted::block`) as HTML with `<span class="c|s|n|k">` around comments,
/// strings, numbers and keywords, by the language `path`'s extension names.
#[must_use]
pub fn highlight(path: &str, text: &str) -> String {
    let lang = lang_of(path);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut i = 0;
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    let span = |out: &mut String, class: &str, from: usize, to: usize| {
        let token: String = chars[from..to].iter().collect();
        out.push_str(&format!(
            "<span class=\"{class}\">{}</span>",
            entities(&token)
        ));
    };
    while i < chars.len() {
        let c = chars[i];
        if lang.line_comment.iter().any(|p| at(i, p)) {
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |k| i + k);
            span(&mut out, "c", i, end);
            i = end;
        } else if let Some((open, close)) = lang.block_comment.filter(|(o, _)| at(i, o)) {
            let mut end = i + open.chars().count();
            while end < chars.len() && !at(end, close) {
                end += 1;
            }
            end = (end + close.chars().count()).min(chars.len());
            span(&mut out, "c", i, end);
            i = end;
        } else if lang.quotes.contains(&c) {
            let end = string_end(&chars, i, lang);
            span(&mut out, "s", i, end);
            i = end;
        } else if c.is_ascii_digit() {
            let mut end = i;
            while end < chars.len()
                && (chars[end].is_ascii_alphanumeric() || chars[end] == '.' || chars[end] == '_')
            {
                end += 1;
            }
            span(&mut out, "n", i, end);
            i = end;
        } else if c.is_alphabetic()
            || c == '_'
            || (lang.ident_extra.contains(c) && !lang.keywords.is_empty())
        {
            let mut end = i;
            while end < chars.len()
                && (chars[end].is_alphanumeric()
                    || chars[end] == '_'
                    || lang.ident_extra.contains(chars[end]))
            {
                end += 1;
            }
            let word: String = chars[i..end].iter().collect();
            if lang.keywords.contains(&word.as_str()) {
                span(&mut out, "k", i, end);
            } else {
                out.push_str(&entities(&word));
            }
            i = end;
        } else {
            out.push_str(&entities(c.encode_utf8(&mut [0; 4])));
            i += 1;
        }
    }
    out
}

/// Where the string opening at `i` ends (after its closing quote, or the end of its line for an
/// unclosed one; a Python triple quote runs to its closing triple).
fn string_end(chars: &[char], i: usize, lang: &Lang) -> usize {
    let q = chars[i];
    let triple =
        std::ptr::eq(lang, &PYTHON) && chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q);
    let mut k = i + if triple { 3 } else { 1 };
    while k < chars.len() {
        match chars[k] {
            '\\' => k += 2,
            c if c == q
                && (!triple || (chars.get(k + 1) == Some(&q) && chars.get(k + 2) == Some(&q))) =>
            {
                return (k + if triple { 3 } else { 1 }).min(chars.len());
            }
            '\n' if !triple => return k,
            _ => k += 1,
        }
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_numbers_and_keywords_are_marked_and_markup_escaped() {
        let py = highlight("ut3.py", "def move(self):  # <b>\n    return (1, 'x<')\n");
        assert_eq!(
            py,
            "<span class=\"k\">def</span> move(<span class=\"k\">self</span>):  <span class=\"c\"># &lt;b&gt;</span>\n    <span class=\"k\">return</span> (<span class=\"n\">1</span>, <span class=\"s\">&#39;x&lt;&#39;</span>)\n"
        );
        let scm = highlight("ai.scm", "(define (AI b w) ; two\n  \"s\\\"\")");
        assert!(scm.contains("<span class=\"k\">define</span>"), "{scm}");
        assert!(scm.contains("<span class=\"c\">; two</span>"), "{scm}");
        assert!(
            scm.contains("<span class=\"s\">&quot;s\\&quot;&quot;</span>"),
            "{scm}"
        );
        let pl = highlight("oska.pl", "/* a\nb */ x :- Y is 1. % c");
        assert!(
            pl.starts_with("<span class=\"c\">/* a\nb */</span>"),
            "{pl}"
        );
        assert!(pl.contains("<span class=\"k\">is</span>"), "{pl}");
        // An unclosed string or comment runs to the end, and nothing unescaped gets out.
        for text in ["\"<script>", "/* <script>", "'''<x>"] {
            let h = highlight("a.c", text) + &highlight("a.py", text);
            assert!(!h.contains("<script") && !h.contains("<x>"), "{h}");
        }
        assert_eq!(highlight("notes.txt", "a < b"), "a &lt; b");
    }
}
