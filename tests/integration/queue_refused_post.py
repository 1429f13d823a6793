# queue_refused_post.py: part of queue_refused_post.sh (its failure: "XADD jobs").
import sys
for i in range(1, 201):
    print(f"XADD hivebridge:r:jobs * game {i} white a opening \"\" type Base depth 0 movetime 0 "
          f"clock 0 inc 0 max_plies 12 repetition 3 engine_a uhp:/bin/true engine_b builtin")
