// RUN: -g -O2
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
// ; surface inl: 35 words, 10 uniform and 12 varying slots
// ; param float Kd uniform u0
// ; global float s varying v0
// ; global output color Ci varying v1
// ; in inl
// tests/vm/disasm/04_debug_O2.sl:14: surface inl(float Kd = 0.5)
//       0  MOV.1    v4, u1=0
//       1  MOV.1    v5, u1=0
// tests/vm/disasm/04_debug_O2.sl:16: float x = s * Kd;
//       2  MUL.1    v6, v0<s>, u0<Kd>
// ; in scale, inlined at tests/vm/disasm/04_debug_O2.sl:10
// tests/vm/disasm/04_debug_O2.sl:4: float t = a * b;
//       3  MOV.1    v7, u4=1
// tests/vm/disasm/04_debug_O2.sl:5: return t + 1;
//       4  MADD.1   v7, v6, u3=2
// ; in inl
// tests/vm/disasm/04_debug_O2.sl:19: if (s > 0.5)
//       5  LT.1     v8, u5=0.5, v0<s>
//       6  MASKALL
//       7  NOT.1    v9, v8
//       8  AND.1    v8, u2=1, v8
//       9  AND.1    v9, u2=1, v9
//      10  OR.1     v4, v4, v8
//      11  OR.1     v5, v5, v9
//      12  MASK     v9
//      13  MOV.1    v8, v7
//      14  MASKALL
// ; in scale, inlined at tests/vm/disasm/04_debug_O2.sl:20
// tests/vm/disasm/04_debug_O2.sl:4: float t = a * b;
//      15  JNONE    v4 -> 26
//      16  MASK     v4
//      17  MOV.1    v9, u4=1
// tests/vm/disasm/04_debug_O2.sl:5: return t + 1;
//      18  MADD.1   v9, v6, u6=3
// ; in inl
// tests/vm/disasm/04_debug_O2.sl:20: y = y + scale(x, 3);
//      19  ADD.1    v7, v7, v9
// tests/vm/disasm/04_debug_O2.sl:19: if (s > 0.5)
//      20  MASKALL
//      21  OR.1     v5, v5, v4
//      22  MASK     v4
//      23  MOV.1    v8, v7
//      24  MASKALL
//      25  MOV.1    v4, u7=0
// tests/vm/disasm/04_debug_O2.sl:21: Ci = color(y, x, 0);
//      26  JNONE    v5 -> 34
//      27  MASK     v5
//      28  MOV.1    v9, v8
//      29  MOV.1    v10, v6
//      30  MOV.1    v11, u8=0
// tests/vm/disasm/04_debug_O2.sl:15: {
//      31  MOV.3    v1<Ci>, v9
//      32  MASKALL
//      33  MOV.1    v5, u9=0
// tests/vm/disasm/04_debug_O2.sl:14: surface inl(float Kd = 0.5)
//      34  RET
// ; frames
// ;   #0 inl, entry 0
// ;   #1 scale, inlined at tests/vm/disasm/04_debug_O2.sl:20 in #0, entry 15
// ;   #2 twice, inlined at tests/vm/disasm/04_debug_O2.sl:18 in #0, entry 3
// ;   #3 scale, inlined at tests/vm/disasm/04_debug_O2.sl:10 in #2, entry 3
// ; variables
// ;   float s in #0: v0 pc 0-35
// ;   float Kd in #0: u0 pc 0-35
// ;   float x in #0: v6 pc 3-29
// ;   float t in #0: optimized out
// ;   float unused in #0: optimized out
// ;   float y in #0: v7 pc 4-19, v8 pc 14-28, v7 pc 20-23
// ;   color Ci in #0: v9 pc 29-31
// ;   float a in #1: v6 pc 3-29
// ;   float b in #1: optimized out
// ;   float t in #1: optimized out
// ;   float z in #2: v6 pc 3-29
// ;   float w in #2: v7 pc 4-19
// ;   float a in #3: v6 pc 3-29
// ;   float b in #3: optimized out
// ;   float t in #3: optimized out
// <<<
