//! Turning a suite's raw TOML into checked types: names, groups, cases, expected outputs (golden files
//! or the reference solver), each mistake with the file's line and column.

#[allow(clippy::wildcard_imports)]
use super::*;

use std::collections::BTreeMap;

use super::raw::{RawLanguage, RawVariant};

pub(super) struct Loader<'a> {
    pub(super) dir: &'a Path,
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
    pub(super) oracle: &'a dyn Oracle,
    pub(super) golden_optional: bool,
    /// `grader validate`: also check what only some commands use (`[calibrate]`'s folders).
    pub(super) strict: bool,
    /// Every problem found so far: the loader goes on past one to report them all at once.
    pub(super) problems: std::cell::RefCell<Vec<SuiteError>>,
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

impl Loader<'_> {
    /// With `[arena.marks]`, `grader run` adds a `tournament` column: no group or manual column may
    /// take the name, and the `gate` must name a group.
    fn tournament_columns(
        &self,
        raw: Option<&crate::arena::config::RawArena>,
        groups: &[Group],
        manual: &[Manual],
    ) -> Result<(), SuiteError> {
        let Some(marks) = raw.and_then(|a| a.marks.as_ref()) else {
            return Ok(());
        };
        for reserved in ["tournament", "tournament-note"] {
            if groups.iter().any(|g| g.name == reserved)
                || manual.iter().any(|m| m.name == reserved)
            {
                return self.err(
                    marks.by_rank.span(),
                    format!("a group or manual column is named `{reserved}`, the column `grader run` writes the `[arena.marks]` into\nhint: rename the group or column"),
                );
            }
        }
        if let Some(gate) = &marks.gate {
            if !groups.iter().any(|g| &g.name == gate.get_ref()) {
                let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
                return self.err(
                    gate.span(),
                    format!(
                        "`gate = \"{}\"` names no group of the suite\nhint: the groups are `{}`",
                        gate.get_ref(),
                        names.join("`, `")
                    ),
                );
            }
        }
        Ok(())
    }

    pub(super) fn err<T>(
        &self,
        span: std::ops::Range<usize>,
        message: impl AsRef<str>,
    ) -> Result<T, SuiteError> {
        Err(located(self.path, self.text, Some(span), message.as_ref()).into())
    }

    /// The value, or `None` with its problem kept for the end: a part of the suite that is wrong
    /// does not stop the check of the others.
    pub(super) fn keep<T>(&self, result: Result<T, SuiteError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.problems.borrow_mut().push(e);
                None
            }
        }
    }

    pub(super) fn name(&self, what: &str, name: &Spanned<String>) -> Result<String, SuiteError> {
        if !is_name(name.get_ref()) {
            return self.err(
                name.span(),
                format!(
                    "bad {what} name `{}`\nhint: use lowercase letters, digits and `-`",
                    name.get_ref()
                ),
            );
        }
        Ok(name.get_ref().clone())
    }

    /// The whole suite checked: every part is checked even when another is wrong, and all their
    /// problems are returned together ([`SuiteError::Many`]).
    pub(super) fn suite(
        &self,
        raw: RawSuite,
        name: String,
        config: &Config,
        oracle: Arc<dyn Oracle>,
    ) -> Result<Suite, SuiteError> {
        if raw.title.get_ref().trim().is_empty() {
            self.keep::<()>(self.err(raw.title.span(), "the suite's `title` is empty"));
        }
        let limits = self
            .keep(
                raw.limits
                    .apply(&config.limits, self.path, self.text)
                    .map_err(Into::into),
            )
            .unwrap_or_else(|| config.limits.clone());
        let build_limits = self
            .keep(
                raw.build_limits
                    .apply(&config.build, self.path, self.text)
                    .map_err(Into::into),
            )
            .unwrap_or_else(|| config.build.clone());
        if raw.languages.is_empty() && !raw.groups.is_empty() {
            self.keep::<()>(self.err(0..0, "the suite has no `[[languages]]`: every submission would fail to build, and the error would read as the student's\nhint: add a recipe, e.g. `[[languages]]` with `name = \"python\"`, `detect = [\"main.py\"]`, `run = [\"python3\", \"{dir}/main.py\"]` (suites/README.md, \"Languages\")"));
        }
        let languages = self.languages(raw.languages);
        let variants = self.variants(raw.variants);
        let arena = self.keep(self.arena(raw.arena.as_ref()));
        let entries = self.keep(self.entries(raw.entries)).unwrap_or_default();
        let manual = self.manual(raw.manual);
        let calibrate = self.calibrate(raw.calibrate, &languages);
        let file_names = self
            .keep(self.file_names(raw.file_names.as_ref()))
            .unwrap_or(FileNames::Unpredictable);
        let names: Vec<&str> = languages.iter().map(|l| l.name.as_str()).collect();
        let calibration = self
            .keep(calibration::Calibration::load(self.dir, &names).map_err(Into::into))
            .flatten();
        // A suite with an `[arena]` and no groups is a tournament-only event (`grader play`,
        // `grader tournament`); anything else needs cases to grade.
        if raw.groups.is_empty() && raw.arena.is_none() {
            self.keep::<()>(self.err(
                0..0,
                "the suite has no `[[groups]]`\nhint: add at least one group with cases, or an `[arena]` table for a suite graded only by tournaments",
            ));
        }
        // Without a good `[arena]` every play case would repeat its problem: they wait for it.
        let groups = match &arena {
            Some(arena) => self.groups(raw.groups, &languages, &limits, arena.as_ref(), &manual),
            None => Vec::new(),
        };
        self.keep(self.tournament_columns(raw.arena.as_ref(), &groups, &manual));
        let problems = self.problems.take();
        if !problems.is_empty() {
            return Err(SuiteError::many(problems));
        }
        Ok(Suite {
            name,
            dir: self.dir.to_path_buf(),
            title: raw.title.into_inner(),
            seed: raw.seed,
            limits,
            build_limits,
            languages,
            variants,
            groups,
            arena: arena.flatten(),
            entries,
            manual,
            calibrate,
            calibration,
            file_names,
            // Filled in by `Suite::load_with` once the suite is whole (`kit.toml`, or its own cases).
            hidden: super::Hidden {
                cases: 0,
                points: 0.0,
                total: 0.0,
            },
            kit: false,
            oracle,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// `[[languages]]`: each recipe and its second programs, checked; the good ones returned, every
    /// problem kept.
    fn languages(&self, raw: Vec<RawLanguage>) -> Vec<Language> {
        raw.into_iter()
            .filter_map(|l| self.keep(self.language(l)))
            .collect()
    }

    fn language(&self, l: RawLanguage) -> Result<Language, SuiteError> {
        let lname = self.name("language", &l.name)?;
        if l.detect.get_ref().is_empty() {
            return self.err(l.detect.span(), format!("language `{lname}` has an empty `detect` list\nhint: name the files that identify it, e.g. `[\"tictactoe.py\"]`"));
        }
        if l.run.get_ref().first().is_none_or(|p| p.is_empty()) {
            return self.err(
                l.run.span(),
                format!("language `{lname}` has an empty `run` command"),
            );
        }
        let python = self.python_versions(&lname, &l.run, l.versions.as_ref())?;
        let mut programs = Vec::new();
        for (pname, p) in l.programs {
            programs.push(self.program(&lname, pname, p, &python)?);
        }
        self.detect(&lname, &l.detect)?;
        let support = self.support(&lname, &l.support)?;
        Ok(Language {
            name: lname,
            detect: l.detect.into_inner(),
            build: l.build,
            run: l.run.into_inner(),
            support,
            address_space: l.address_space,
            programs,
            python,
        })
    }

    /// `programs.NAME` of language `lname`: a second program built in the same copy.
    fn program(
        &self,
        lname: &str,
        pname: String,
        p: Spanned<super::raw::RawProgram>,
        python: &[PythonVersion],
    ) -> Result<ExtraRecipe, SuiteError> {
        let span = p.span();
        let p = p.into_inner();
        if !is_name(&pname) {
            return self.err(
                span,
                format!("bad program name `{pname}`\nhint: use lowercase letters, digits and `-`"),
            );
        }
        if p.detect.get_ref().is_empty() {
            return self.err(p.detect.span(), format!("program `{pname}` of language `{lname}` has an empty `detect` list\nhint: name the files that show a student attempted it, e.g. `[\"{pname}.py\"]`"));
        }
        if p.run.get_ref().first().is_none_or(|r| r.is_empty()) {
            return self.err(
                p.run.span(),
                format!("program `{pname}` of language `{lname}` has an empty `run` command"),
            );
        }
        Ok(ExtraRecipe {
            name: pname,
            detect: p.detect.into_inner(),
            build: p.build,
            run: p.run.into_inner(),
            python: python.to_vec(),
        })
    }

    /// `[variants]`: the reference's known variants a suite gives credit to (every problem kept).
    fn variants(&self, raw: BTreeMap<String, Spanned<RawVariant>>) -> Vec<VariantCredit> {
        raw.into_iter()
            .filter_map(|(vname, v)| self.keep(self.variant(vname, v)))
            .collect()
    }

    fn variant(&self, vname: String, v: Spanned<RawVariant>) -> Result<VariantCredit, SuiteError> {
        let known: Vec<(&str, &str)> = self.oracle.variants();
        let span = v.span();
        let v = v.into_inner();
        let Some((_, description)) = known.iter().find(|(n, _)| *n == vname) else {
            let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
            let near = crate::toml_file::suggest(&vname, names.iter().copied())
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default();
            return self.err(
                span,
                format!(
                    "unknown variant `{vname}`\nhint: {near}the reference solvers know: {}",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            );
        };
        let credit = *v.credit.get_ref();
        if !(0.0..=1.0).contains(&credit) {
            return self.err(
                v.credit.span(),
                format!("variant credit `{credit}` is not between 0 and 1"),
            );
        }
        Ok(VariantCredit {
            name: vname,
            description: description.to_string(),
            credit,
            note: v.note,
        })
    }

    /// `file-names`: how output files are named for each run (default: unpredictably).
    fn file_names(&self, raw: Option<&Spanned<String>>) -> Result<FileNames, SuiteError> {
        Ok(match raw {
            None => FileNames::Unpredictable,
            Some(f) => match f.get_ref().as_str() {
                "unpredictable" => FileNames::Unpredictable,
                "as-written" => FileNames::AsWritten,
                other => return self.err(f.span(), format!("unknown `file-names` value `{other}`\nhint: use `unpredictable` (the default: a name per case and student) or `as-written` (the name in `args`, for a handout that fixes it)")),
            },
        })
    }

    /// `[[groups]]`, each with its cases; names distinct from each other and from the manual columns.
    /// Every group is checked; its problems are kept.
    fn groups(
        &self,
        raw: Vec<Spanned<RawGroup>>,
        languages: &[Language],
        limits: &Limits,
        arena: Option<&Arc<ArenaConfig>>,
        manual: &[Manual],
    ) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for g in raw {
            let name_span = g.get_ref().name.span();
            if let Some(p) = &g.get_ref().program {
                if let Some(l) = languages
                    .iter()
                    .find(|l| !l.programs.iter().any(|x| &x.name == p.get_ref()))
                {
                    self.keep::<()>(self.err(p.span(), format!("group `{}` runs program `{}`, which language `{}` does not define\nhint: give every `[[languages]]` entry `programs.{} = {{ detect = [...], build = [...], run = [...] }}`", g.get_ref().name.get_ref(), p.get_ref(), l.name, p.get_ref())));
                }
            }
            let group = self.group(g.into_inner(), limits, arena);
            if manual.iter().any(|m| m.name == group.name) {
                self.keep::<()>(self.err(
                    name_span.clone(),
                    format!("group `{}` has the name of a `[[manual]]` column\nhint: grades.csv needs distinct column names", group.name),
                ));
            }
            if groups.iter().any(|x| x.name == group.name) {
                self.keep::<()>(self.err(
                    name_span.clone(),
                    format!("group `{}` is declared twice", group.name),
                ));
            }
            self.keep(self.distinct_outputs(&groups, &group, name_span));
            groups.push(group);
        }
        groups
    }

    /// `versions = ["3", "2"]`: only on a recipe run with `python3`, each `"2"` or `"3"`, once.
    fn python_versions(
        &self,
        lname: &str,
        run: &Spanned<Vec<String>>,
        versions: Option<&Spanned<Vec<Spanned<String>>>>,
    ) -> Result<Vec<PythonVersion>, SuiteError> {
        let Some(versions) = versions else {
            return Ok(Vec::new());
        };
        if run.get_ref().first().map(String::as_str) != Some("python3") {
            return self.err(versions.span(), format!("language `{lname}` sets `versions`, but its `run` command does not start with `python3`\nhint: `versions` chooses the Python interpreter; remove it, or run `python3`"));
        }
        if versions.get_ref().is_empty() {
            return self.err(
                versions.span(),
                format!("language `{lname}` has an empty `versions` list\nhint: write `[\"3\"]`, `[\"3\", \"2\"]` or `[\"2\"]`"),
            );
        }
        let mut out = Vec::new();
        for v in versions.get_ref() {
            let Some(parsed) = PythonVersion::parse(v.get_ref()) else {
                return self.err(
                    v.span(),
                    format!(
                        "unknown Python version `{}`\nhint: write `\"2\"` or `\"3\"`",
                        v.get_ref()
                    ),
                );
            };
            if out.contains(&parsed) {
                return self.err(
                    v.span(),
                    format!("Python version `{}` is listed twice", v.get_ref()),
                );
            }
            out.push(parsed);
        }
        Ok(out)
    }

    /// `[calibrate]`: each language's reference hand-in. Under `grader validate` each folder must
    /// exist (a copied suite's relative paths often point nowhere); other commands need none of them.
    fn calibrate(
        &self,
        table: std::collections::BTreeMap<Spanned<String>, String>,
        languages: &[Language],
    ) -> Vec<(String, PathBuf)> {
        let mut out = Vec::new();
        for (language, folder) in table {
            if !languages.iter().any(|l| &l.name == language.get_ref()) {
                self.keep::<()>(self.err(language.span(), format!("`[calibrate]` names `{}`, which is not one of the suite's `[[languages]]`\nhint: use a language's `name`, e.g. `python = \"../../examples/submissions/SUITE/python-correct\"`", language.get_ref())));
                continue;
            }
            let full = self.dir.join(&folder);
            if self.strict && !full.is_dir() {
                self.keep::<()>(self.err(language.span(), format!("`[calibrate]`'s `{}` hand-in `{folder}` is not a folder (`{}`)\nhint: the path is relative to the suite's folder; a copied suite needs its own, or remove the line", language.get_ref(), full.display())));
            }
            out.push((language.into_inner(), full));
        }
        out
    }

    fn visibility(
        &self,
        v: &Option<Spanned<String>>,
        default: Visibility,
    ) -> Result<Visibility, SuiteError> {
        match v {
            None => Ok(default),
            Some(v) => match v.get_ref().as_str() {
                "public" => Ok(Visibility::Public),
                "hidden" => Ok(Visibility::Hidden),
                other => self.err(
                    v.span(),
                    format!("unknown visibility `{other}`\nhint: use `public` or `hidden`"),
                ),
            },
        }
    }

    /// One group and its cases: every problem kept, the group returned as far as it is good.
    fn group(&self, g: RawGroup, limits: &Limits, arena: Option<&Arc<ArenaConfig>>) -> Group {
        let name = self
            .keep(self.name("group", &g.name))
            .unwrap_or_else(|| g.name.get_ref().clone());
        let points = *g.points.get_ref();
        if let Err(e) = crate::units::check_points(points) {
            self.keep::<()>(self.err(g.points.span(), format!("group `{name}`: {e}")));
        }
        let credit = match &g.credit {
            None => CreditRule::Proportional,
            Some(c) => match c.get_ref().as_str() {
                "proportional" => CreditRule::Proportional,
                "all-or-nothing" => CreditRule::AllOrNothing,
                other => {
                    self.keep::<()>(self.err(c.span(), format!("unknown credit rule `{other}`\nhint: use `proportional` or `all-or-nothing`")));
                    CreditRule::Proportional
                }
            },
        };
        let visibility = self
            .keep(self.visibility(&g.visibility, Visibility::Hidden))
            .unwrap_or(Visibility::Hidden);
        if g.cases.is_empty() {
            self.keep::<()>(self.err(g.name.span(), format!("group `{name}` has no cases")));
        }
        let mut cases: Vec<Case> = Vec::new();
        for c in g.cases {
            let span = c.span();
            let Some(case) = self.keep(self.case(c.into_inner(), visibility, limits, arena)) else {
                continue;
            };
            if cases.iter().any(|x| x.name == case.name) {
                self.keep::<()>(self.err(
                    span,
                    format!("case `{}` appears twice in group `{name}`", case.name),
                ));
            }
            cases.push(case);
        }
        Group {
            name,
            title: g.title,
            points,
            credit,
            program: g.program.map(Spanned::into_inner),
            cases,
        }
    }

    fn case(
        &self,
        mut c: RawCase,
        visibility: Visibility,
        limits: &Limits,
        arena: Option<&Arc<ArenaConfig>>,
    ) -> Result<Case, SuiteError> {
        let name = self.name("case", &c.name)?;
        let visibility = self.visibility(&c.visibility, visibility)?;
        let kind = match (c.play.take(), c.position.take()) {
            (Some(_), Some(p)) => {
                return self.err(p.span(), format!("case `{name}` is both a `play` and a `position` case\nhint: a case is exactly one kind: split it into two cases"));
            }
            (Some(play), None) => {
                self.no_run_keys(&name, "play", &c, false)?;
                Some(Kind::Play(self.play(&name, play, arena)?))
            }
            (None, Some(position)) => {
                self.no_run_keys(&name, "position", &c, true)?;
                Some(Kind::Position(self.position(&name, position, &c, arena)?))
            }
            (None, None) => None,
        };
        if let Some(kind) = kind {
            return Ok(Case {
                name,
                visibility,
                limits: limits.clone(),
                kind,
            });
        }
        let args_span = c.args.as_ref().map_or(c.name.span(), |a| a.span());
        let args: Vec<String> = c.args.map(Spanned::into_inner).unwrap_or_default();
        for arg in &args {
            let mut rest = arg.as_str();
            while let Some(start) = rest.find('{') {
                let end = rest[start..]
                    .find('}')
                    .map_or(rest.len(), |e| start + e + 1);
                let placeholder = &rest[start..end];
                if !PLACEHOLDERS.contains(&placeholder) {
                    return self.err(args_span.clone(), format!("unknown placeholder `{placeholder}` in case `{name}`\nhint: arguments may use {}", PLACEHOLDERS.join(", ")));
                }
                rest = &rest[end..];
            }
        }
        let limits = match &c.limits {
            Some(l) => l.apply(limits, self.path, self.text)?,
            None => limits.clone(),
        };
        // One reference run per case serves its stdout and its files.
        let mut solved: Option<Solved> = None;
        let stdout = match c.stdout {
            Some(e) => Some(self.expect(&name, &args, &args_span, e, None, &mut solved)?),
            None => None,
        };
        let mut files = Vec::new();
        for (file, e) in c.files {
            let fname = file.get_ref();
            if fname.is_empty() || fname.contains('/') || fname.starts_with('.') {
                return self.err(file.span(), format!("bad file name `{fname}`\nhint: name a file in the program's working folder, e.g. `visited.txt`"));
            }
            let expect = self.expect(&name, &args, &args_span, e, Some(fname), &mut solved)?;
            files.push((fname.clone(), expect));
        }
        if stdout.is_none() && files.is_empty() {
            return self.err(c.name.span(), format!("case `{name}` checks nothing\nhint: give `stdout` or `files.\"NAME\"` an expected output"));
        }
        Ok(Case {
            name,
            visibility,
            limits,
            kind: Kind::Run(Run {
                args,
                stdin: c.stdin.map(String::into_bytes),
                stdout,
                files,
            }),
        })
    }

    fn expect(
        &self,
        case: &str,
        args: &[String],
        args_at: &std::ops::Range<usize>,
        e: Spanned<RawExpect>,
        file: Option<&str>,
        solved: &mut Option<Solved>,
    ) -> Result<Expect, SuiteError> {
        let span = e.span();
        let e = e.into_inner();
        let comparator = self.comparator(&e, file.is_some())?;
        let golden = self.golden(&e)?;
        let reference = self.reference(&e)?;
        // The student build prints no answer it computed: a crafted case could ask for any board's.
        if cfg!(feature = "student") && golden.is_none() && reference.is_some() {
            return self.err(span, format!("case `{case}` has no golden file, and this student build computes no reference answers\nhint: check with your instructor's kit of the suite (`grader kit` writes every public answer down)"));
        }
        let text: Arc<str> = match (&golden, &reference) {
            (Some((_, Some(text))), _) => text.as_str().into(),
            (_, Some(program)) => {
                if solved.is_none() {
                    let concrete: Vec<String> = args.iter().map(|a| a.replace("{work}", super::REFERENCE_WORK)).collect();
                    match self.oracle.solve(program, &concrete, None) {
                        Ok(s) => *solved = Some(s),
                        Err(m) => return self.err(args_at.clone(), format!("the reference solver `{program}` rejects case `{case}`: {m}")),
                    }
                }
                let s = solved.as_ref().expect("solved just above");
                match file {
                    None => s.stdout.as_str().into(),
                    Some(_) => s.file.as_str().into(),
                }
            }
            (_, None) => return self.err(span, format!("an expected output of case `{case}` gives neither `golden` nor `reference`\nhint: `{{ golden = \"golden/NAME\" }}` or `{{ reference = \"tictactoe\" }}`")),
        };
        Ok(Expect {
            comparator,
            text,
            golden: golden.map(|(rel, _)| rel),
            reference,
        })
    }

    /// How the case's output is compared: `compare`, with `tolerance` for `numeric` only; by default
    /// `trace` for a file and `exact` for stdout.
    fn comparator(&self, e: &RawExpect, file: bool) -> Result<Comparator, SuiteError> {
        let comparator = match &e.compare {
            None => {
                if file { Comparator::Trace } else { Comparator::Exact }
            }
            Some(c) => match c.get_ref().as_str() {
                "exact" => Comparator::Exact,
                "tokens" => Comparator::Tokens,
                "trace" => Comparator::Trace,
                "numeric" => Comparator::Numeric { tolerance: e.tolerance.as_ref().map_or(1e-6, |t| *t.get_ref()) },
                other => return self.err(c.span(), format!("unknown comparator `{other}`\nhint: use `exact`, `tokens`, `numeric` or `trace`")),
            },
        };
        if let Some(t) = &e.tolerance {
            if !matches!(comparator, Comparator::Numeric { .. }) {
                return self.err(
                    t.span(),
                    "`tolerance` applies only to `compare = \"numeric\"`",
                );
            }
            if !(t.get_ref().is_finite() && *t.get_ref() >= 0.0) {
                return self.err(t.span(), format!("bad tolerance `{}`", t.get_ref()));
            }
        }
        Ok(comparator)
    }

    /// The golden file, inside the suite folder, with its text (none yet when `golden` may be written
    /// later from the reference).
    fn golden(&self, e: &RawExpect) -> Result<Option<(PathBuf, Option<String>)>, SuiteError> {
        Ok(match &e.golden {
            None => None,
            Some(g) => {
                let rel = PathBuf::from(g.get_ref());
                if rel.is_absolute()
                    || rel
                        .components()
                        .any(|c| matches!(c, std::path::Component::ParentDir))
                {
                    return self.err(
                        g.span(),
                        format!(
                            "golden file `{}` must be inside the suite folder",
                            g.get_ref()
                        ),
                    );
                }
                let full = self.dir.join(&rel);
                match std::fs::read_to_string(&full) {
                    Ok(text) => Some((rel, Some(text))),
                    Err(_) if self.golden_optional && e.reference.is_some() => Some((rel, None)),
                    Err(err) => {
                        let hint = if e.reference.is_some() {
                            format!("write it with `grader golden {}`", self.dir.display())
                        } else {
                            format!("the path is relative to the suite's folder `{}`; write the file, or add `reference = \"...\"` and write it with `grader golden`", self.dir.display())
                        };
                        return self.err(
                            g.span(),
                            format!(
                                "cannot read golden file `{}`: {}\nhint: {hint}",
                                g.get_ref(),
                                err.to_string().to_lowercase()
                            ),
                        );
                    }
                }
            }
        })
    }

    /// The reference solver, one the grader knows.
    fn reference(&self, e: &RawExpect) -> Result<Option<String>, SuiteError> {
        Ok(match &e.reference {
            None => None,
            Some(r) => {
                if !self.oracle.programs().contains(&r.get_ref().as_str()) {
                    let names = self.oracle.programs().join(", ");
                    return self.err(
                        r.span(),
                        format!(
                            "unknown reference solver `{}`\nhint: the grader knows: {}",
                            r.get_ref(),
                            if names.is_empty() {
                                "none".into()
                            } else {
                                names
                            }
                        ),
                    );
                }
                Some(r.get_ref().clone())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    /// The student build refuses an expected output only the reference computes (a crafted suite could
    /// ask it for any board's answer); the instructor's build computes it.
    #[test]
    fn only_the_instructors_build_computes_reference_answers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(super::SUITE_FILE),
            r#"title = "t"
seed = 1
[[languages]]
name = "python"
detect = ["a.py"]
run = ["python3", "{dir}/a.py"]
[[groups]]
name = "g"
points = 1
[[groups.cases]]
name = "any-board"
args = ["xo-------", "{work}/visited.txt"]
stdout = { reference = "tictactoe" }
"#,
        )
        .unwrap();
        let config = crate::config::Config::load(None).unwrap();
        let loaded = super::Suite::load(dir.path(), &config, crate::suite::oracle::builtin());
        if cfg!(feature = "student") {
            let e = loaded.err().expect("refused").to_string();
            assert!(e.contains("computes no reference answers"), "{e}");
        } else {
            let suite = loaded.unwrap();
            let run = suite.groups[0].cases[0].run().unwrap();
            assert_eq!(&*run.stdout.as_ref().unwrap().text, "xo-x-----\n");
        }
    }
}
