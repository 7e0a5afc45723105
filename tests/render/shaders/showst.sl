/* s and t as red and green. */
surface showst() { Ci = color(s, t, 0); Oi = 1; }
