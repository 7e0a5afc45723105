surface test()
{
  #if 1
    Ci = 1;
}

/* EXPECT
77_unterminated_if.sl:3:3: error: unterminated #if
    3 |   #if 1
      | 
*/
