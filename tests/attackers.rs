//! The hostile class's students (`hostile_class`), shared with the class-time benchmark
//! (`benches/grading.rs` includes this file).

/// The hostile students: folder name → `tictactoe.py`. `{golden}` is replaced by the absolute path of a
/// golden trace of the suite, which the grader (root, on the host) could read if it followed a link.
pub fn attackers() -> Vec<(&'static [u8], String)> {
    let link = |target: &str| {
        format!(
            "import os, sys\nif len(sys.argv) > 2:\n    os.symlink({target:?}, sys.argv[2])\nprint('x--------')\n"
        )
    };
    vec![
        (b"link-golden", link("{golden}")),
        (b"link-shadow", link("/etc/shadow")),
        (b"link-zero", link("/dev/zero")),
        (
            b"fifo",
            "import os, sys\nif len(sys.argv) > 2:\n    os.mkfifo(sys.argv[2])\n".into(),
        ),
        (
            b"folder-visited",
            "import os, sys\nif len(sys.argv) > 2:\n    os.mkdir(sys.argv[2])\n".into(),
        ),
        (
            b"deep-chain",
            "import os\nfor _ in range(30000):\n    os.mkdir('d')\n    os.chdir('d')\n".into(),
        ),
        (
            b"many-files",
            "import os\nos.mkdir('f')\nfor i in range(300000):\n    open('f/%d' % i, 'w').close()\n"
                .into(),
        ),
        (
            b"locked-out",
            "import os\nos.makedirs('a/b/c')\nopen('a/b/c/x', 'w').close()\nfor p in ('a/b/c', 'a/b', 'a'):\n    os.chmod(p, 0)\n"
                .into(),
        ),
        (
            b"snoop",
            "import os, sys\nfor p in ('/proc/1/cmdline', '/proc/1/environ', '/proc/self/environ', '/proc/1/task/1/cmdline'):\n    try:\n        sys.stdout.write(open(p, 'rb').read().decode('latin-1').replace('\\0', ' ') + '\\n')\n    except Exception as e:\n        sys.stderr.write('%s: %s\\n' % (p, e))\nsys.stdout.write(' '.join(os.environ.values()) + '\\n')\n"
                .into(),
        ),
        (
            b"escapes",
            "import sys\nsys.stdout.write('\\x1b]0;pwned\\x07\\x1b[2J\\x9b6n' + 'A' * 65536 + '\\n')\nsys.stderr.write('\\x1b]0;pwned\\x07\\x1b[31m' + 'B' * 65536 + '\\n')\nraise SystemExit(1)\n"
                .into(),
        ),
        (
            b"=HYPERLINK(\"evil.example\",\"x\")",
            "print('x--------')\n".into(),
        ),
        (b"bad-name-\xff", "print('x--------')\n".into()),
        (b"bad-name-\xfe", "raise SystemExit(2)\n".into()),
        // Asleep in one case: stopped at the idle limit, not at the suite's 30 s wall limit.
        (
            b"sleeps",
            "import sys, time\nif sys.argv[1:2] == ['oxxxo-ox-']:\n    time.sleep(1000)\nprint('x--------')\n".into(),
        ),
    ]
}
