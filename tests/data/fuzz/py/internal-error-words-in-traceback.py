mpor("Ena				irscope: internal error:ime:", end_time - srtat_time)
