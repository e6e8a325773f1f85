// A text as one word of a shell command line, for the demo client page's "same from a terminal"
// lines (demo.js): whatever a file name holds, the line stays one command and shows what runs.

// Characters that must not reach a terminal as they are: C0 and C1 control characters and DEL
// (a newline would split the command, an escape sequence act on the terminal), and the
// bidirectional controls, which reorder what is seen against what runs.
const unprintable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * `text` as one word of a shell command (bash, zsh), to copy into a terminal: in single quotes
 * when it is all printable; else in `$'…'`, every character above written as an escape (`\n`,
 * `\x1B`, `\u202E`), as the command line writes names (docs/SECURITY.md).
 */
export function shellWord(text) {
  if (!unprintable.test(text)) return `'${text.replace(/'/g, "'\\''")}'`;
  const hex = (code, digits) => code.toString(16).toUpperCase().padStart(digits, "0");
  const named = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", "'": "\\'" };
  let word = "";
  for (const character of text) {
    const code = character.codePointAt(0);
    if (named[character]) word += named[character];
    else if (!unprintable.test(character)) word += character;
    else word += code < 0x80 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  }
  return `$'${word}'`;
}
