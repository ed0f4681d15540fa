//! The grammar, compiled by pest: [`TaflParser`] and the [`Rule`] enum it derives from
//! `grammar/tafl.pest` (one variant per grammar rule, documented by the rule's `///` comment).
//! Its own module so that the parser (pairs to AST), the syntax errors (which name the rules
//! expected) and completion (which asks what may follow) all depend on it and not on each other.

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/tafl.pest"]
pub(super) struct TaflParser;

/// The numbers the grammar's `number_word` accepts in words, and their values.
pub(super) const NUMBER_WORDS: &[(&str, u32)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

#[cfg(test)]
mod tests {
    use super::{Rule, TaflParser, NUMBER_WORDS};
    use pest::Parser as _;

    /// The grammar's `number_word` and this table list the same words: each word is a whole
    /// number to the grammar, and a word the grammar does not list is not.
    #[test]
    fn every_number_word_is_a_number_and_no_other_word_is() {
        for (word, _) in NUMBER_WORDS {
            let parsed = TaflParser::parse(Rule::number, word)
                .map(|mut pairs| pairs.next().map(|pair| pair.as_str().to_string()));
            assert_eq!(parsed.ok().flatten().as_deref(), Some(*word), "{word}");
        }
        for word in ["hundred", "seventh", "fourty", "twentyone"] {
            let whole = TaflParser::parse(Rule::number, word)
                .is_ok_and(|mut pairs| pairs.next().is_some_and(|pair| pair.as_str() == word));
            assert!(!whole, "{word} is not a number word");
        }
    }
}
