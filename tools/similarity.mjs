// Runs Dolos (@dodona/dolos-lib) over the files named on stdin and prints the pairs as JSON.
//
// Input (stdin): {"dolos": "<folder holding node_modules/@dodona/dolos-lib>", "language": "c",
//                 "files": ["/abs/path", ...]}
// Output (stdout): {"pairs": [{"left": 0, "right": 1, "similarity": 0.93, "longest": 166}, ...]}
// where left and right index `files`, similarity is Dolos's (0..1) and longest is the longest
// shared fragment in k-grams. Errors go to stderr with a non-zero exit.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const input = JSON.parse(readFileSync(0, "utf8"));
const lib = join(input.dolos, "node_modules", "@dodona", "dolos-lib", "dist", "index.js");
const { Dolos } = await import(pathToFileURL(lib).href);
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
