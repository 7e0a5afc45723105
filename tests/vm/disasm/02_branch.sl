// RUN: -O2
surface branch(float n = 3; float k[2] = { 1, 2 })
{
    float x = s, i;
    if (x > 0.5)
        x = sqrt(x) * k[1];
    else
        x = x - 1;
    for (i = 0; i < n; i += 1)
        x += du;
    Ci = color(x, Du(x), 0);
}
// >>> output
// ; surface branch: 74 words, 14 uniform and 13 varying slots
// ; param float n uniform u0
// ; param float k[2] uniform u1
// ; global float s varying v0
// ; global float du varying v1
// ; global output color Ci varying v2
// tests/vm/disasm/02_branch.sl:2: surface branch(float n = 3; float k[2] = { 1, 2 })
//       0  MOV.1    v5, u3
//       1  MOV.1    v6, u3
//       2  MOV.1    v7, u3
//       3  MOV.1    v8, u3
//       4  MOV.1    v9, u3
//       5  MOV.1    v10, u3
// tests/vm/disasm/02_branch.sl:5: if (x > 0.5)
//       6  LT.1     v11, u5=0.5, v0<s>
//       7  MASKALL
//       8  NOT.1    v12, v11
//       9  AND.1    v11, u4, v11
//      10  AND.1    v12, u4, v12
//      11  OR.1     v6, v6, v11
//      12  OR.1     v5, v5, v12
// tests/vm/disasm/02_branch.sl:8: x = x - 1;
//      13  JNONE    v5 -> 21
//      14  MASK     v5
//      15  SUB.1    v11, v0<s>, u6=1
// tests/vm/disasm/02_branch.sl:5: if (x > 0.5)
//      16  MASKALL
//      17  OR.1     v7, v7, v5
//      18  MASK     v5
//      19  MASKALL
//      20  MOV.1    v5, u7=0
// tests/vm/disasm/02_branch.sl:6: x = sqrt(x) * k[1];
//      21  JNONE    v6 -> 34
//      22  MASK     v6
//      23  CALLB.1  v5 = sqrt(f)f(v0<s>)
//      25  AGET.1   u3, u1<k>[u6=1] (2 elements)
//      27  MUL.1    v5, v5, u3
// tests/vm/disasm/02_branch.sl:5: if (x > 0.5)
//      28  MASKALL
//      29  OR.1     v7, v7, v6
//      30  MASK     v6
//      31  MOV.1    v11, v5
//      32  MASKALL
//      33  MOV.1    v6, u8=0
// tests/vm/disasm/02_branch.sl:10: x += du;
//      34  JNONE    v7 -> 42
//      35  MASK     v7
// tests/vm/disasm/02_branch.sl:9: for (i = 0; i < n; i += 1)
//      36  MASKALL
//      37  OR.1     v8, v8, v7
//      38  MASK     v7
//      39  MOV.1    u3, u9=0
//      40  MASKALL
//      41  MOV.1    v7, u10=0
// tests/vm/disasm/02_branch.sl:10: x += du;
//      42  JNONE    v8 -> 64
//      43  MASK     v8
// tests/vm/disasm/02_branch.sl:9: for (i = 0; i < n; i += 1)
//      44  LT.1     u4, u3, u0<n>
//      45  MASKALL
//      46  NOT.1    v5, u4
//      47  AND.1    v6, v8, u4
//      48  AND.1    v5, v8, v5
//      49  OR.1     v9, v9, v6
//      50  OR.1     v10, v10, v5
//      51  MOV.1    v8, u11=0
// tests/vm/disasm/02_branch.sl:10: x += du;
//      52  JNONE    v9 -> 63
//      53  MASK     v9
//      54  ADD.1    v5, v11, v1<du>
// tests/vm/disasm/02_branch.sl:9: for (i = 0; i < n; i += 1)
//      55  ADD.1    u4, u3, u6=1
//      56  MASKALL
//      57  OR.1     v8, v8, v9
//      58  MASK     v9
//      59  MOV.1    v11, v5
//      60  MOV.1    u3, u4
//      61  MASKALL
//      62  MOV.1    v9, u12=0
//      63  JMP      -> 42
// tests/vm/disasm/02_branch.sl:11: Ci = color(x, Du(x), 0);
//      64  JNONE    v10 -> 73
//      65  MASK     v10
//      66  DERIV.1  v5, v11, du
//      67  MOV.1    v6, v11
//      68  MOV.1    v7, v5
//      69  MOV.1    v8, u9=0
// tests/vm/disasm/02_branch.sl:3: {
//      70  MOV.3    v2<Ci>, v6
//      71  MASKALL
//      72  MOV.1    v10, u13=0
// tests/vm/disasm/02_branch.sl:2: surface branch(float n = 3; float k[2] = { 1, 2 })
//      73  RET
// <<<
