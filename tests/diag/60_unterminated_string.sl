surface test(string s = "open;)
{
    Ci = 1;
}

/* EXPECT
60_unterminated_string.sl:1:25: warning: missing terminating " character
    1 | surface test(string s = "open;)
      |                         ^
60_unterminated_string.sl:1:25: error: unterminated string
surface test(string s = "open;)
                        ^
60_unterminated_string.sl:2:1: error: unexpected '{'
{
^
*/
