//! "Did you mean": the nearest of a few known names to a misspelt one, so a
//! refusal can say what to write instead.

/// The Levenshtein distance between `a` and `b`, compared case-insensitively
/// (a wrong case is the commonest slip: `text` for `Text`).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The candidate nearest to `word`, when it is near enough to be the one
/// meant: at most one edit for short names, a third of the word for longer
/// ones. Ties go to the earlier candidate; `word` itself is never suggested.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = edit_distance(word, candidate);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("feilds", "fields"), 2);
        assert_eq!(edit_distance("text", "Text"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("Optional", "Option"), 2);
    }

    #[test]
    fn nearest_is_near_enough_or_nothing() {
        assert_eq!(nearest("feilds", ["name", "fields", "doc"]), Some("fields"));
        assert_eq!(nearest("constructor", ["fields", "constructors"]), Some("constructors"));
        assert_eq!(nearest("colour", ["name", "doc"]), None);
        assert_eq!(nearest("doc", ["doc"]), None);
    }
}
