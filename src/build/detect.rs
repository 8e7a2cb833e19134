//! Recipe detection: which files a recipe's `detect` patterns (plain names or `*`/`?` globs within one
//! name) find in a submission's top folder.

use std::path::Path;

/// Whether a file name matches a `detect` pattern: `*` is any run of characters, `?` one character.
#[must_use]
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Iterative matching with one backtrack point: linear in practice, never exponential.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Whether `dir` holds a file matching `pattern` (a plain name or a glob).
#[must_use]
pub fn detect_matches(dir: &Path, pattern: &str) -> bool {
    if !pattern.contains(['*', '?']) {
        return dir.join(pattern).is_file();
    }
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            e.file_type().is_ok_and(|t| t.is_file())
                && glob_match(pattern, &e.file_name().to_string_lossy())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs_match_within_names() {
        assert!(glob_match("*.scm", "ai.scm"));
        assert!(glob_match("*.scm", ".scm"));
        assert!(!glob_match("*.scm", "ai.scm~"));
        assert!(glob_match("team??.py", "team07.py"));
        assert!(!glob_match("team??.py", "team7.py"));
        assert!(glob_match("a*b*c", "abbbc"));
        assert!(!glob_match("a*b*c", "abbb"));
        assert!(glob_match("player.py", "player.py"));
        assert!(!glob_match("player.py", "player.pyc"));
    }
}
