python3 shared/device/launch_floor.py
for s in "4096 8192" "32 32768" "128 32768" "128 131072" "512 131072"; do
  ncu --clock-control none -k regex:kernel_cutlass --launch-skip 1 --launch-count 1 --metrics dram__bytes_read.sum,lts__t_bytes.sum,gpu__time_duration.sum python3 shared/device/hbm_reads.py $s 2>&1 | grep -E "hbm_reads|dram__bytes|lts__t_bytes|gpu__time|ERROR" 
done
ncu --clock-control none -k regex:kernel_cutlass --launch-skip 2 --launch-count 2 --metrics dram__bytes_read.sum,gpu__time_duration.sum python3 shared/device/hbm_reads.py 8 131072 2>&1 | grep -E "hbm_reads|dram__bytes|gpu__time|ERROR|kernel_cutlass" | cut -c1-150
