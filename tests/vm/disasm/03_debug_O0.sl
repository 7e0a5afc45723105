// RUN: -g -O0
float scale(float a; float b)
{
    float t = a * b;
    return t + 1;
}

float twice(float z)
{
    float w = scale(z, 2);
    return w;
}

surface inl(float Kd = 0.5)
{
    float x = s * Kd;
    float unused = t * 3;
    float y = twice(x);
    if (s > 0.5)
        y = y + scale(x, 3);
    Ci = color(y, x, 0);
}
// >>> output
// ; surface inl: 96 words, 20 uniform and 20 varying slots
// ; param float Kd uniform u0
// ; global float s varying v0
// ; global float t varying v1
// ; global output color Ci varying v2
// ; in inl
// tests/vm/disasm/03_debug_O0.sl:14: surface inl(float Kd = 0.5)
//       0  MOV.1    v5, u1=0
//       1  MOV.1    v6, u1=0
//       2  MOV.1    v7, u1=0
//       3  MOV.1    v8, u1=0
//       4  MOV.1    v9, u1=0
//       5  MOV.1    v10, u1=0
//       6  MOV.1    v11, u1=0
//       7  MOV.1    v12, u1=0
//       8  MOV.1    v13, u1=0
//       9  MOV.1    v14, u1=0
//      10  MOV.1    v15, u1=0
//      11  MOV.1    v16, u1=0
// tests/vm/disasm/03_debug_O0.sl:16: float x = s * Kd;
//      12  MUL.1    v17, v0<s>, u0<Kd>
// tests/vm/disasm/03_debug_O0.sl:17: float unused = t * 3;
//      13  MUL.1    v18, v1<t>, u3=3
// tests/vm/disasm/03_debug_O0.sl:18: float y = twice(x);
//      14  MASKALL
//      15  OR.1     v5, v5, u2=1
// ; in twice, inlined at tests/vm/disasm/03_debug_O0.sl:18
// tests/vm/disasm/03_debug_O0.sl:10: float w = scale(z, 2);
//      16  JNONE    v5 -> 21
//      17  MASK     v5
//      18  MASKALL
//      19  OR.1     v6, v6, v5
//      20  MOV.1    v5, u4=0
// ; in scale, inlined at tests/vm/disasm/03_debug_O0.sl:10
// tests/vm/disasm/03_debug_O0.sl:4: float t = a * b;
//      21  JNONE    v6 -> 28
//      22  MASK     v6
//      23  MUL.1    v5, v17, u5=2
// tests/vm/disasm/03_debug_O0.sl:5: return t + 1;
//      24  ADD.1    v19, v5, u6=1
//      25  MASKALL
//      26  OR.1     v7, v7, v6
//      27  MOV.1    v6, u7=0
// tests/vm/disasm/03_debug_O0.sl:3: {
//      28  JNONE    v7 -> 33
//      29  MASK     v7
//      30  MASKALL
//      31  OR.1     v8, v8, v7
//      32  MOV.1    v7, u8=0
// ; in twice, inlined at tests/vm/disasm/03_debug_O0.sl:18
// tests/vm/disasm/03_debug_O0.sl:11: return w;
//      33  JNONE    v8 -> 38
//      34  MASK     v8
//      35  MASKALL
//      36  OR.1     v9, v9, v8
//      37  MOV.1    v8, u9=0
// tests/vm/disasm/03_debug_O0.sl:9: {
//      38  JNONE    v9 -> 43
//      39  MASK     v9
//      40  MASKALL
//      41  OR.1     v10, v10, v9
//      42  MOV.1    v9, u10=0
// ; in inl
// tests/vm/disasm/03_debug_O0.sl:19: if (s > 0.5)
//      43  JNONE    v10 -> 56
//      44  MASK     v10
//      45  LT.1     v6, u11=0.5, v0<s>
//      46  MASKALL
//      47  AND.1    v7, v10, v6
//      48  NOT.1    v6, v6
//      49  AND.1    v6, v10, v6
//      50  OR.1     v11, v11, v7
//      51  OR.1     v15, v15, v6
//      52  MASK     v6
//      53  MOV.1    v6, v19
//      54  MASKALL
//      55  MOV.1    v10, u12=0
// tests/vm/disasm/03_debug_O0.sl:20: y = y + scale(x, 3);
//      56  JNONE    v11 -> 61
//      57  MASK     v11
//      58  MASKALL
//      59  OR.1     v12, v12, v11
//      60  MOV.1    v11, u13=0
// ; in scale, inlined at tests/vm/disasm/03_debug_O0.sl:20
// tests/vm/disasm/03_debug_O0.sl:4: float t = a * b;
//      61  JNONE    v12 -> 68
//      62  MASK     v12
//      63  MUL.1    v7, v17, u3=3
// tests/vm/disasm/03_debug_O0.sl:5: return t + 1;
//      64  ADD.1    v8, v7, u6=1
//      65  MASKALL
//      66  OR.1     v13, v13, v12
//      67  MOV.1    v12, u14=0
// tests/vm/disasm/03_debug_O0.sl:3: {
//      68  JNONE    v13 -> 73
//      69  MASK     v13
//      70  MASKALL
//      71  OR.1     v14, v14, v13
//      72  MOV.1    v13, u15=0
// ; in inl
// tests/vm/disasm/03_debug_O0.sl:20: y = y + scale(x, 3);
//      73  JNONE    v14 -> 82
//      74  MASK     v14
//      75  ADD.1    v8, v19, v8
// tests/vm/disasm/03_debug_O0.sl:19: if (s > 0.5)
//      76  MASKALL
//      77  OR.1     v15, v15, v14
//      78  MASK     v14
//      79  MOV.1    v6, v8
//      80  MASKALL
//      81  MOV.1    v14, u16=0
// tests/vm/disasm/03_debug_O0.sl:21: Ci = color(y, x, 0);
//      82  JNONE    v15 -> 90
//      83  MASK     v15
//      84  MOV.1    v9, v6
//      85  MOV.1    v10, v17
//      86  MOV.1    v11, u17=0
// tests/vm/disasm/03_debug_O0.sl:14: surface inl(float Kd = 0.5)
//      87  MASKALL
//      88  OR.1     v16, v16, v15
//      89  MOV.1    v15, u18=0
// tests/vm/disasm/03_debug_O0.sl:15: {
//      90  JNONE    v16 -> 95
//      91  MASK     v16
//      92  MOV.3    v2<Ci>, v9
//      93  MASKALL
//      94  MOV.1    v16, u19=0
// tests/vm/disasm/03_debug_O0.sl:14: surface inl(float Kd = 0.5)
//      95  RET
// ; frames
// ;   #0 inl, entry 0
// ;   #1 twice, inlined at tests/vm/disasm/03_debug_O0.sl:18 in #0, entry 16
// ;   #2 scale, inlined at tests/vm/disasm/03_debug_O0.sl:20 in #0, entry 61
// ;   #3 scale, inlined at tests/vm/disasm/03_debug_O0.sl:10 in #1, entry 21
// ; variables
// ;   float s in #0: v0 pc 0-96
// ;   float Kd in #0: u0 pc 0-96
// ;   float x in #0: v17 pc 13-96
// ;   float t in #0: v1 pc 0-96
// ;   float unused in #0: v18 pc 14-96
// ;   float y in #0: v19 pc 25-96, v6 pc 54-96, v8 pc 76-96
// ;   color Ci in #0: v9 pc 85-96
// ;   float z in #1: v17 pc 13-96
// ;   float w in #1: v19 pc 25-96
// ;   float a in #2: v17 pc 13-96
// ;   float b in #2: optimized out
// ;   float t in #2: v7 pc 64-96
// ;   float a in #3: v17 pc 13-96
// ;   float b in #3: optimized out
// ;   float t in #3: v5 pc 24-96
// <<<
