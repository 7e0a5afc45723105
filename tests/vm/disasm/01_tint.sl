// RUN: -O0
surface tint(float Kd = 0.5)
{
    color c = Cs * Kd;
    Ci = c + 0.25;
}
// >>> output
// ; surface tint: 5 words, 7 uniform and 9 varying slots
// ; param float Kd uniform u0
// ; global color Cs varying v0
// ; global output color Ci varying v3
// tests/vm/disasm/01_tint.sl:4: color c = Cs * Kd;
//       0  SPLAT.3  u1, u0<Kd>
//       1  MUL.3    v6, v0<Cs>, u1
// tests/vm/disasm/01_tint.sl:5: Ci = c + 0.25;
//       2  ADD.3    v6, v6, u4=(0.25 0.25 0.25)
// tests/vm/disasm/01_tint.sl:3: {
//       3  MOV.3    v3<Ci>, v6
//       4  RET
// <<<
