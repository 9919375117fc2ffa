// Idioms of MindSpore's control-flow system tests (tests/st/control): the
// tests.st.control.cases_register marks every function there carries, and grad functions
// differentiated again (F.grad(F.grad(f))), in PYNATIVE_MODE and GRAPH_MODE.
#include <QtTest>

#include "op_script_fixture.h"

using script_test::Run;
using script_test::runScript;

class TestMsStControl : public QObject {
    Q_OBJECT
private slots:
    // The marks return the function unchanged and record the device and level, so that
    // check_and_run runs the functions registered for one device at one level.
    void casesRegister() {
        const Run r = runScript(
            "from tests.st.control.cases_register import case_register\n"
            "@case_register.level0\n"
            "@case_register.target_gpu\n"
            "@case_register.target_cpu\n"
            "def test_a():\n"
            "    print('a ran')\n"
            "@case_register.level1\n"
            "@case_register.target_cpu\n"
            "def test_b():\n"
            "    print('b ran')\n"
            "@case_register.skip('flaky')\n"
            "@case_register.level0\n"
            "@case_register.target_cpu\n"
            "def test_c():\n"
            "    print('c ran')\n"
            "test_a()\n"
            "print(sorted(case_register.case_targets[test_a]), case_register.case_levels[test_b])\n"
            "case_register.check_and_run('CPU', 0)\n"
            "case_register.check_and_run('Ascend', 1)\n");
        EXPECT_OUTPUT(r, "a ran\n['CPU', 'GPU'] 1\na ran\n");
    }

    // A grad function is itself a function of the same inputs: differentiating it again gives
    // the second (third) derivative; with a tuple of gradients, of their sum.
    void gradOfGradFunction() {
        op_test::expectBothModes(
            op_test::kPrelude +
                "import mindspore.ops.functional as F\n"
                "class Mul3(nn.Cell):\n"
                "    def construct(self, a, b):\n"
                "        return a * a * b\n"
                "def cube(a):\n"
                "    return a * a * a\n",
            "a = Tensor(2.0, ms.float32)\n"
            "b = Tensor(3.0, ms.float32)\n"
            "print(F.grad(F.grad(cube))(a), F.grad(F.grad(F.grad(cube)))(a))\n"
            "g1 = F.grad(Mul3(), grad_position=(0, 1))\n"
            "print(F.grad(g1, grad_position=(0, 1))(a, b))\n"
            "print(ops.GradOperation()(ops.grad(cube))(a))\n",
            "12.0 6.0\n"
            "(Tensor(shape=[], dtype=Float32, value= 10), Tensor(shape=[], dtype=Float32, value= "
            "4))\n"
            "12.0\n");
    }
};

QTEST_GUILESS_MAIN(TestMsStControl)
#include "test_ms_st_control.moc"
