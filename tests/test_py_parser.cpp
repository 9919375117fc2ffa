// The script front end: what a user loading a network script sees. The grammar snippets and
// the seed scripts parse to the tree CPython's ast module gives them (same nodes, same source
// positions); bad scripts get Python's error message at the right line and column; hostile
// input gets an error, never a crash.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/parser.h"
#include "test_files.h"

using namespace irscope;
using namespace irscope::ast;
using irscope::frontend::parseModule;
using irscope::frontend::SyntaxError;

namespace {

using test_files::readFile;

// dumpAst of each top-level statement, one per line.
std::string dumpBody(const Module& m, bool spans = false) {
    DumpOptions o;
    o.spans = spans;
    std::string out;
    for (const StmtPtr& s : m.body) {
        out += dumpAst(*s, o) + "\n";
    }
    return out;
}

std::string dumpSource(const std::string& src) {
    std::string out = dumpBody(*parseModule(src, "snippet.py"));
    if (!out.empty()) {
        out.pop_back();
    }
    return out;
}

// Parses src expecting a SyntaxError; returns its diagnostic (empty message if none).
Diagnostic errorOf(const std::string& src) {
    try {
        parseModule(src, "script.py");
    } catch (const SyntaxError& e) {
        return e.diagnostic();
    }
    return {};
}

std::string spanText(const Span& s) {
    return std::to_string(s.line) + ":" + std::to_string(s.col) + "-" + std::to_string(s.endLine) +
           ":" + std::to_string(s.endCol);
}

const char* const kSeedConstruct =
    "class Net(nn.Cell):\n"
    "    def construct(self, x):\n"
    "        a = ops.sub(x, 1)\n"
    "        return a\n";

}  // namespace

class TestPyParser : public QObject {
    Q_OBJECT

private slots:
    // --- the grammar ------------------------------------------------------------------------

    void grammarSnippets_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");
        std::istringstream in(
            readFile(std::filesystem::path(IRSCOPE_TEST_DATA) / "py/grammar_snippets.txt"));
        std::string line, source, expected;
        enum { None, Source, Ast } part = None;
        int n = 0;
        auto flush = [&]() {
            if (part == Ast) {
                expected.pop_back();
                QTest::addRow("%02d %s", ++n, source.substr(0, source.find('\n')).c_str())
                    << QString::fromStdString(source) << QString::fromStdString(expected);
            }
            source.clear();
            expected.clear();
        };
        while (std::getline(in, line)) {
            if (line == "#### source") {
                flush();
                part = Source;
            } else if (line == "---- ast") {
                part = Ast;
            } else if (part == Source) {
                source += line + "\n";
            } else if (part == Ast) {
                expected += line + "\n";
            }
        }
        flush();
        QVERIFY(n >= 40);
    }

    void grammarSnippets() {
        QFETCH(QString, source);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(dumpSource(source.toStdString())), expected);
    }

    void constantsAreDecoded() {
        auto m = parseModule(
            "a = 0xFF_FF\nb = 123456789012345678901234567890\nc = 1e400\n"
            "d = 'caf\\xe9 \\u4e2d\\U0001F600 \\101 \\q'\ne = '''x\ny'''\n");
        const auto& a = m->body[0]->cast<Assign>().value->cast<Constant>();
        QCOMPARE(a.intValue, std::int64_t(65535));
        QCOMPARE(a.intText, std::string("0xFFFF"));
        const auto& b = m->body[1]->cast<Assign>().value->cast<Constant>();
        QVERIFY(b.intOverflow);
        QCOMPARE(b.intText, std::string("123456789012345678901234567890"));
        QVERIFY(std::isinf(m->body[2]->cast<Assign>().value->cast<Constant>().floatValue));
        QCOMPARE(m->body[3]->cast<Assign>().value->cast<Constant>().strValue,
                 std::string("caf\xc3\xa9 \xe4\xb8\xad\xf0\x9f\x98\x80 A \\q"));
        QCOMPARE(m->body[4]->cast<Assign>().value->cast<Constant>().strValue, std::string("x\ny"));
    }

    void fstringParts() {
        auto m = parseModule("s = f'{x=}' f\"{y!r:>{w}.{p}}\" '{{z}}'\n");
        QCOMPARE(
            dumpBody(*m),
            std::string(
                "Assign(targets=[Name(id='s', ctx=Store())], value=JoinedStr(values=["
                "Constant(value='x='), FormattedValue(value=Name(id='x'), conversion=114), "
                "FormattedValue(value=Name(id='y'), conversion=114, format_spec=JoinedStr("
                "values=[Constant(value='>'), FormattedValue(value=Name(id='w'), conversion=-1), "
                "Constant(value='.'), FormattedValue(value=Name(id='p'), conversion=-1)])), "
                "Constant(value='{{z}}')]))\n"));
        // Names inside replacement fields carry their true positions.
        const auto& joined = m->body[0]->cast<Assign>().value->cast<JoinedStr>();
        QCOMPARE(spanText(joined.values[1]->cast<FormattedValue>().value->span),
                 std::string("1:7-1:8"));
    }

    // --- positions --------------------------------------------------------------------------

    void spansFollowMindSporeConvention() {
        auto m = parseModule(kSeedConstruct, "net.py");
        const auto& cls = m->body[0]->cast<ClassDef>();
        const auto& fn = cls.body[0]->cast<FunctionDef>();
        const auto& assign = fn.body[0]->cast<Assign>();
        const Expr& call = *assign.value;
        // "# In file net.py:3, 12~25/        a = ops.sub(x, 1)/": 0-based start, exclusive end.
        QCOMPARE(call.span.line, 3);
        QCOMPARE(call.span.col, 12);
        QCOMPARE(call.span.endLine, 3);
        QCOMPARE(call.span.endCol, 25);
        QCOMPARE(m->text(call.span), std::string_view("ops.sub(x, 1)"));
        QCOMPARE(m->line(3), std::string_view("        a = ops.sub(x, 1)"));
        QCOMPARE(m->charColumn(3, call.span.col), 13);  // what an editor shows
        QCOMPARE(spanText(assign.span), std::string("3:8-3:25"));
        QCOMPARE(spanText(fn.span), std::string("2:4-4:16"));  // def .. last statement
        QCOMPARE(spanText(cls.span), std::string("1:0-4:16"));
        QCOMPARE(spanText(fn.args.args[1].span), std::string("2:24-2:25"));
    }

    void spansMatchCPythonOnSnippet() {
        auto m = parseModule("y = (a + b) * c[1:2, ::3]\nf(x for x in y)\n");
        QCOMPARE(
            dumpBody(*m, true),
            std::string(
                "Assign(targets=[Name(id='y', ctx=Store())@1:0-1:1], value=BinOp(left=BinOp("
                "left=Name(id='a')@1:5-1:6, op=Add(), right=Name(id='b')@1:9-1:10)@1:5-1:10, "
                "op=Mult(), right=Subscript(value=Name(id='c')@1:14-1:15, slice=Tuple(elts=["
                "Slice(lower=Constant(value=1)@1:16-1:17, upper=Constant(value=2)@1:18-1:19)"
                "@1:16-1:19, Slice(step=Constant(value=3)@1:23-1:24)@1:21-1:24]"
                ")@1:16-1:24)@1:14-1:25)@1:4-1:25)@1:0-1:25\n"
                "Expr(value=Call(func=Name(id='f')@2:0-2:1, args=[GeneratorExp(elt=Name(id='x')"
                "@2:2-2:3, generators=[comprehension(target=Name(id='x', ctx=Store())@2:8-2:9, "
                "iter=Name(id='y')@2:13-2:14)])@2:1-2:15])@2:0-2:15)@2:0-2:15\n"));
    }

    void utf8IdentifiersUseByteColumns() {
        auto m = parseModule(
            "\xef\xbb\xbf"
            "\xc3\xa9t\xc3\xa9 = \xe5\x80\xbc + 1\r\nx = 2\r\n");
        const auto& assign = m->body[0]->cast<Assign>();
        QCOMPARE(assign.targets[0]->cast<Name>().id, std::string("\xc3\xa9t\xc3\xa9"));
        const Expr& rhs = *assign.value->cast<BinOp>().left;
        QCOMPARE(spanText(rhs.span), std::string("1:8-1:11"));  // bytes, as CPython
        QCOMPARE(m->charColumn(1, rhs.span.col), 7);
        QCOMPARE(m->line(2), std::string_view("x = 2"));  // CRLF normalised, BOM dropped
    }

    // --- the lexer --------------------------------------------------------------------------

    void lexicalStructure() {
        // Tabs, implicit joining, continuation, comments and blank lines, CRLF, no final newline.
        const std::string expected = dumpSource("if a:\n    x = [1,\n 2]\n    y = 3\nz = 4\n");
        QCOMPARE(
            dumpSource(
                "if a:\r\n\tx = [1,   # one\r\n 2]\r\n\r\n   # note\r\n\ty = \\\r\n 3\r\nz = 4"),
            expected);
        QCOMPARE(dumpSource("if a:\n\tif b:\n\t\tx = 1\n\ty = 2\n"),
                 dumpSource("if a:\n    if b:\n        x = 1\n    y = 2\n"));
        QCOMPARE(dumpSource(""), std::string());
        QCOMPARE(dumpSource("# only a comment"), std::string());
    }

    // --- the seeds --------------------------------------------------------------------------

    void seedScripts() {
        // Blocks of the tutorials that use `...` as a placeholder for parameters are not
        // Python: the user gets CPython's error at the same place.
        struct Invalid {
            const char* file;
            int line;
            int column;
            const char* message;
        };
        const Invalid kInvalid[] = {
            {"seed_static_graph_expert_01.py", 10, 25, "invalid syntax"},
            {"seed_static_graph_expert_02.py", 6, 24, "invalid syntax"},
            {"seed_static_graph_expert_03.py", 1, 23, "expected ':'"},
            {"seed_static_graph_expert_05.py", 6, 24, "invalid syntax"},
            {"seed_static_graph_expert_06.py", 6, 24, "invalid syntax"},
        };
        int valid = 0;
        int invalid = 0;
        for (const auto& entry :
             std::filesystem::directory_iterator(std::filesystem::path(IRSCOPE_TEST_DATA) / "py")) {
            const std::filesystem::path& p = entry.path();
            if (p.extension() != ".py" || p.filename().string().rfind("seed_", 0) != 0) {
                continue;
            }
            std::string name = p.filename().string();
            const Invalid* bad = nullptr;
            for (const Invalid& i : kInvalid) {
                bad = name == i.file ? &i : bad;
            }
            if (bad) {
                Diagnostic d = errorOf(readFile(p));
                QVERIFY2(
                    d.line == bad->line && d.column == bad->column && d.message == bad->message,
                    (name + ": " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " +
                     d.message)
                        .c_str());
                ++invalid;
                continue;
            }
            std::unique_ptr<Module> m;
            try {
                m = parseModule(readFile(p), name);
            } catch (const SyntaxError& e) {
                QFAIL(e.what());
            }
            std::filesystem::path golden = p;
            golden.replace_extension(".ast");
            QCOMPARE(QString::fromStdString(dumpBody(*m, true)),
                     QString::fromStdString(readFile(golden)));
            ++valid;
        }
        QCOMPARE(invalid, 5);
        QCOMPARE(valid, 24);
    }

    // --- errors -----------------------------------------------------------------------------

    void errors_data() {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, const char* src, int line, int col, const char* kind,
                      const char* msg) {
            QTest::newRow(name) << QByteArray(src) << line << col << QString(kind) << QString(msg);
        };
        row("invalid syntax", "x = 1\ny = 2 3\n", 2, 7, "SyntaxError", "invalid syntax");
        row("missing colon", "if x\n    pass\n", 1, 5, "SyntaxError", "expected ':'");
        row("unexpected indent", "x = 1\n    y = 2\n", 2, 5, "IndentationError",
            "unexpected indent");
        row("indented block", "x = 1\n\nif x:\ny = 2\n", 4, 1, "IndentationError",
            "expected an indented block after 'if' statement on line 3");
        row("indented block def", "def f():\nreturn 1\n", 2, 1, "IndentationError",
            "expected an indented block after function definition on line 1");
        row("unindent", "if x:\n        a = 1\n    b = 2\n", 3, 5, "IndentationError",
            "unindent does not match any outer indentation level");
        row("tabs", "if x:\n        a = 1\n\tb = 2\n", 3, 2, "TabError",
            "inconsistent use of tabs and spaces in indentation");
        row("unterminated", "x = 1\n\ny = 'abc\nz = 2\n", 3, 5, "SyntaxError",
            "unterminated string literal (detected at line 3)");
        row("unterminated triple", "x = 1\ns = '''abc\n\n\n\n\n\n\nend\n", 2, 5, "SyntaxError",
            "unterminated triple-quoted string literal (detected at line 9)");
        row("never closed", "x = foo(1,\n  2\ny = 3\n", 1, 8, "SyntaxError",
            "'(' was never closed");
        row("unmatched", "x = (1))\n", 1, 8, "SyntaxError", "unmatched ')'");
        row("mismatch", "x = (1, 2]\n", 1, 10, "SyntaxError",
            "closing parenthesis ']' does not match opening parenthesis '('");
        row("mismatch lines", "x = (1,\n 2]\n", 2, 3, "SyntaxError",
            "closing parenthesis ']' does not match opening parenthesis '(' on line 1");
        row("assign call", "f() = 1\n", 1, 1, "SyntaxError",
            "cannot assign to function call here. Maybe you meant '==' instead of '='?");
        row("assign call in tuple", "a, f() = 1, 2\n", 1, 4, "SyntaxError",
            "cannot assign to function call");
        row("for target", "for f() in x:\n    pass\n", 1, 5, "SyntaxError",
            "cannot assign to function call");
        row("decimal", "x = 1abc\n", 1, 5, "SyntaxError", "invalid decimal literal");
        row("leading zero", "x = 012\n", 1, 5, "SyntaxError",
            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
            "octal integers");
        row("octal digit", "x = 0o78\n", 1, 8, "SyntaxError", "invalid digit '8' in octal literal");
        row("forgot comma", "f(a b)\n", 1, 3, "SyntaxError",
            "invalid syntax. Perhaps you forgot a comma?");
        row("keyword order", "f(a=1, b)\n", 1, 8, "SyntaxError",
            "positional argument follows keyword argument");
        row("default order", "def f(a=1, b): pass\n", 1, 12, "SyntaxError",
            "non-default argument follows default argument");
        row("duplicate arg", "def f(a, a): pass\n", 1, 10, "SyntaxError",
            "duplicate argument 'a' in function definition");
        row("return outside", "return 1\n", 1, 1, "SyntaxError", "'return' outside function");
        row("break outside", "def f():\n    break\n", 2, 5, "SyntaxError", "'break' outside loop");
        row("starred", "a = *b\n", 1, 5, "SyntaxError", "can't use starred expression here");
        row("fstring empty", "print(f'{}')\n", 1, 10, "SyntaxError",
            "f-string: empty expression not allowed");
        row("fstring brace", "s = f'a}'\n", 1, 8, "SyntaxError",
            "f-string: single '}' is not allowed");
        row("try alone", "try:\n    pass\nx = 1\n", 3, 1, "SyntaxError",
            "expected 'except' or 'finally' block");
        row("bytes", "x = b'abc'\n", 1, 5, "SyntaxError", "bytes literals are not supported");
        row("invalid char", "x = 1 \xc3\x97 2\n", 1, 7, "SyntaxError",
            "invalid character '\xc3\x97' (U+00D7)");
        row("continuation", "x = 1 \\ 2\n", 1, 8, "SyntaxError",
            "unexpected character after line continuation character");
        row("print statement", "print 'hello'\n", 1, 1, "SyntaxError",
            "Missing parentheses in call to 'print'. Did you mean print(...)?");
        row("continuation indent", "x = 1\n \\\n2\n", 2, 2, "IndentationError",
            "unexpected indent");
        row("bad utf8", "x = '\xff'\n", 1, 6, "SyntaxError",
            "(unicode error) invalid UTF-8 byte 0xff");
    }

    void errors() {
        QFETCH(QByteArray, source);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, kind);
        QFETCH(QString, message);
        Diagnostic d = errorOf(source.toStdString());
        QCOMPARE(QString::fromStdString(d.message), message);
        QCOMPARE(d.line, line);
        QCOMPARE(d.column, column);
        QCOMPARE(QString::fromStdString(d.kind), kind);
    }

    void errorTextShowsLineAndCaret() {
        try {
            parseModule("def f(x):\n    a = ops.sub(x 1)\n", "script.py");
            QFAIL("no error");
        } catch (const SyntaxError& e) {
            QCOMPARE(
                std::string(e.what()),
                std::string(
                    "script.py:2:17: SyntaxError: invalid syntax. Perhaps you forgot a comma?\n"
                    "    a = ops.sub(x 1)\n"
                    "                ^"));
        }
    }

    // --- hostile input ----------------------------------------------------------------------

    void deepNestingIsAnError_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("message");
        auto rep = [](const char* s, int n) {
            QString out;
            for (int i = 0; i < n; ++i) {
                out += s;
            }
            return out;
        };
        QTest::newRow("10k parentheses")
            << rep("(", 10000) + rep(")", 10000) << "too many nested parentheses";
        QTest::newRow("10k brackets") << "x = " + rep("[", 10000) << "too many nested parentheses";
        QTest::newRow("100k additions")
            << "x = a" + rep(" + a", 100000) << "expression is too deeply nested";
        QTest::newRow("100k unary") << "x = " + rep("-", 100000) + "1"
                                    << "expression is too deeply nested";
        QTest::newRow("100k not") << "x = " + rep("not ", 100000) + "1"
                                  << "expression is too deeply nested";
        QTest::newRow("100k attributes")
            << "x = a" + rep(".b", 100000) << "expression is too deeply nested";
        QTest::newRow("100k calls")
            << "x = f" + rep("()", 100000) << "expression is too deeply nested";
        QTest::newRow("100k power")
            << "x = a" + rep("**a", 100000) << "expression is too deeply nested";
        QTest::newRow("50k lambdas") << "x = " + rep("lambda: ", 50000) + "0"
                                     << "expression is too deeply nested";
        QTest::newRow("50k conditionals")
            << "x = a" + rep(" if a else a", 50000) << "expression is too deeply nested";
        QString indented;
        for (int i = 0; i < 150; ++i) {
            indented += QString(i, ' ') + "if x:\n";
        }
        QTest::newRow("150 blocks") << indented + QString(150, ' ') + "pass\n"
                                    << "too many levels of indentation";
    }

    void deepNestingIsAnError() {
        QFETCH(QString, source);
        QFETCH(QString, message);
        Diagnostic d = errorOf(source.toStdString());
        QCOMPARE(QString::fromStdString(d.message), message);
    }

    void nestingWithinLimitsParses() {
        std::string src = "x = " + std::string(199, '(') + "1" + std::string(199, ')') + "\n";
        QCOMPARE(
            dumpSource(src),
            std::string("Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value=1))"));
        std::string sum = "x = a";
        for (int i = 0; i < 900; ++i) {
            sum += " + a";
        }
        QCOMPARE(parseModule(sum)->body.size(), std::size_t(1));
    }

    void walkerVisitsEverything() {
        auto m = parseModule(
            "@d(a)\ndef f(x=b, *, y=c) -> e:\n    return [g for h in i if j] + {k: l}\n");
        int names = 0;
        std::function<void(const Expr&)> onExpr = [&](const Expr& e) {
            names += e.kind == ExprKind::Name;
            forEachChild(e, onExpr);
        };
        std::function<void(const Stmt&)> onStmt = [&](const Stmt& s) {
            forEachChild(s, onExpr, onStmt);
        };
        onStmt(*m->body[0]);
        QCOMPARE(names, 11);  // d a b c e g h i j k l
    }
};

QTEST_APPLESS_MAIN(TestPyParser)
#include "test_py_parser.moc"
