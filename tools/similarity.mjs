// Runs Dolos (@dodona/dolos-lib) over the files named on stdin and prints what it found as JSON.
// The grader runs it under its sandbox, with limits, as any program it does not trust.
//
// Input (stdin): {"dolos": "<folder holding node_modules/@dodona/dolos-lib>", "language": "c",
//                 "mode": "pairs" | "tokenize", "files": ["/abs/path", ...]}
// "pairs" prints {"pairs": [{"left": 0, "right": 1, "similarity": 0.93, "longest": 166}, ...]},
// where left and right index `files`, similarity is Dolos's (0..1) and longest is the longest shared
// fragment in k-grams. Errors go to stderr with a non-zero exit.
// "tokenize" reads each file on its own and prints one line per file as it goes: `start I`, then
// `ok I` or `fail I WHY`; a file that kills the process (a crash, a limit) is the last one started.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf8"));
const lib = join(input.dolos, "node_modules", "@dodona", "dolos-lib", "dist", "index.js");
const { Dolos, LanguagePicker, readPath } = await import(pathToFileURL(lib).href);

if (input.mode === "tokenize") {
  const language = await new LanguagePicker().findLanguage(input.language);
  const tokenizer = await language.createTokenizer({ includeComments: false });
  for (const [i, path] of input.files.entries()) {
    // Writes to a pipe are synchronous on Linux: what was printed survives a crash.
    process.stdout.write(`start ${i}\n`);
    try {
      tokenizer.tokenizeFile((await readPath(path)).ok());
      process.stdout.write(`ok ${i}\n`);
    } catch (e) {
      const why = String((e && e.message) || e).replace(/\s+/g, " ");
      process.stdout.write(`fail ${i} ${e && e.name ? e.name + ": " : ""}${why}\n`);
    }
  }
} else {
  const dolos = new Dolos({ language: input.language });
  const report = await dolos.analyzePaths(input.files);
  const index = new Map(input.files.map((f, i) => [f, i]));
  const pairs = report.allPairs().map((p) => ({
    left: index.get(p.leftFile.path),
    right: index.get(p.rightFile.path),
    similarity: p.similarity,
    longest: p.longest,
  }));
  process.stdout.write(JSON.stringify({ pairs }) + "\n");
}
