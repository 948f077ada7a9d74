"""The Coq preamble `InnerProduct.v`: the only axioms of an export, and the replay lemmas.

It axiomatises a real inner-product space over Coq's reals (a type `V`, `vadd`, `vscal` and a
symmetric, bilinear, positive semi-definite `ip`) and *proves* from those axioms the Gram
facts our kernel takes as an axiom schema (`ip v v >= 0`, 2x2 and 3x3 Gram determinants >= 0),
so a step re-checked by coqc rests on nothing but these four axioms and Coq's standard real
numbers. The rest are small lemmas the exported proofs apply: signs of products and sums,
and the bridges between a statement as written and its facts `p (kind) 0`; then finite sums
over integer ranges (`zsum`, a fold over a list of consecutive integers) with their filters
as 0/1 indicators, and the kernel's sum rules (`verify.kernel.sums`; a split and a shift of a
range: `verify.coq.sums.ranges`) proved from the
definition by induction on the length of the range, again without any axiom; last the
term-wise rule's lemmas (`verify.coq.sums.termwise`): a sum of terms each >= 0 (= 0) where the
filters hold, and the split of a sum by linearity into canonical sums; a double sum in the
other order, and the extensionality of a sum (`zsum_ext`, a rule inside a sum's body:
`verify.coq.sums.within`); last sums of vectors
(`verify.coq.sums.vectorsums`), read through an inner product term by term.
"""

PREAMBLE = r"""(** A real inner-product space, axiomatised: the only axioms of the export. *)
Require Import Reals Lra ZArith Lia.
Open Scope R_scope.

Parameter V : Type.
Parameter vadd : V -> V -> V.
Parameter vscal : R -> V -> V.
Parameter ip : V -> V -> R.

Axiom ip_sym : forall u v, ip u v = ip v u.
Axiom ip_add_l : forall u v w, ip (vadd u v) w = ip u w + ip v w.
Axiom ip_scal_l : forall r u w, ip (vscal r u) w = r * ip u w.
Axiom ip_pos : forall v, 0 <= ip v v.

Lemma ip_add_r : forall u v w, ip w (vadd u v) = ip w u + ip w v.
Proof.
  intros u v w. rewrite (ip_sym w (vadd u v)), ip_add_l, (ip_sym u w), (ip_sym v w).
  reflexivity.
Qed.

Lemma ip_scal_r : forall r u w, ip w (vscal r u) = r * ip w u.
Proof. intros r u w. rewrite (ip_sym w (vscal r u)), ip_scal_l, (ip_sym u w). reflexivity. Qed.

Ltac ip_expand := repeat rewrite ?ip_add_l, ?ip_add_r, ?ip_scal_l, ?ip_scal_r.

Definition det2 (a b : V) : R := ip a a * ip b b - ip a b * ip b a.

Definition det3 (a b c : V) : R :=
  ip a a * (ip b b * ip c c - ip b c * ip c b)
  - ip a b * (ip b a * ip c c - ip b c * ip c a)
  + ip a c * (ip b a * ip c b - ip b b * ip c a).

Lemma prod_pos_nonneg_r : forall p d, 0 < p -> 0 <= p * d -> 0 <= d.
Proof.
  intros p d Hp H. destruct (Rle_or_lt 0 d) as [Hd | Hd]; [exact Hd |].
  exfalso. apply (Rlt_irrefl 0). apply (Rle_lt_trans 0 (p * d) 0 H).
  rewrite <- (Rmult_0_r p). apply Rmult_lt_compat_l; assumption.
Qed.

Lemma nonneg_eq : forall x y, x = y -> 0 <= x -> 0 <= y.
Proof. intros x y E H. rewrite <- E. exact H. Qed.

(** Cauchy-Schwarz when ip b b > 0: ip v v = bb * det2 a b for v = bb a - ab b. *)
Lemma det2_core : forall a b, 0 < ip b b -> 0 <= det2 a b.
Proof.
  intros a b Hb.
  pose proof (ip_pos (vadd (vscal (ip b b) a) (vscal (- ip a b) b))) as H.
  ip_expand. unfold det2.
  apply (prod_pos_nonneg_r (ip b b)); [exact Hb |].
  refine (nonneg_eq _ _ _ H). ip_expand. rewrite (ip_sym b a). ring.
Qed.

Lemma det2_sym : forall a b, det2 a b = det2 b a.
Proof. intros a b. unfold det2. rewrite (ip_sym b a). ring. Qed.

Lemma square_nonpos_zero : forall x, 0 <= - (x * x) -> x = 0.
Proof.
  intros x H. destruct (Req_dec x 0) as [E | E]; [exact E |].
  exfalso. pose proof (Rsqr_pos_lt x E) as P. unfold Rsqr in P.
  apply (Rlt_irrefl 0). apply (Rlt_le_trans 0 (x * x)); [exact P |].
  apply Ropp_le_cancel. rewrite Ropp_0. exact H.
Qed.

(** The 2x2 Gram determinant is nonnegative (Cauchy-Schwarz, squared). *)
Lemma gram2_nonneg : forall a b, 0 <= det2 a b.
Proof.
  intros a b.
  destruct (Rle_lt_or_eq_dec 0 (ip b b) (ip_pos b)) as [Hb | Hb]; [exact (det2_core a b Hb) |].
  destruct (Rle_lt_or_eq_dec 0 (ip a a) (ip_pos a)) as [Ha | Ha].
  { rewrite det2_sym. exact (det2_core b a Ha). }
  (* ip a a = ip b b = 0: then ip a b = 0, from |a + b|^2 >= 0 and |a - b|^2 >= 0 *)
  pose proof (ip_pos (vadd a b)) as Hp. pose proof (ip_pos (vadd a (vscal (-1) b))) as Hm.
  repeat rewrite ?ip_add_l, ?ip_add_r, ?ip_scal_l, ?ip_scal_r in Hp.
  repeat rewrite ?ip_add_l, ?ip_add_r, ?ip_scal_l, ?ip_scal_r in Hm.
  rewrite (ip_sym b a) in Hp, Hm.
  assert (E : ip a b = 0).
  { apply Rle_antisym.
    - apply (Rmult_le_reg_l 2); [lra |]. rewrite <- Ha, <- Hb in Hm. lra.
    - apply (Rmult_le_reg_l 2); [lra |]. rewrite <- Ha, <- Hb in Hp. lra. }
  unfold det2. rewrite (ip_sym b a), E, <- Ha. right. ring.
Qed.

Lemma pow3_pos : forall x, 0 < x -> 0 < x * (x * x).
Proof. intros x H. apply Rmult_lt_0_compat; [exact H | apply Rmult_lt_0_compat; exact H]. Qed.

(** det3 when ip a a > 0: projecting b, c off a gives aa^3 * det3 a b c = det2 b' c' >= 0. *)
Lemma det3_core : forall a b c, 0 < ip a a -> 0 <= det3 a b c.
Proof.
  intros a b c Ha.
  pose proof (gram2_nonneg (vadd (vscal (ip a a) b) (vscal (- ip a b) a))
                           (vadd (vscal (ip a a) c) (vscal (- ip a c) a))) as H.
  apply (prod_pos_nonneg_r (ip a a * (ip a a * ip a a))); [exact (pow3_pos _ Ha) |].
  refine (nonneg_eq _ _ _ H). unfold det2, det3. ip_expand.
  rewrite (ip_sym b a), (ip_sym c a), (ip_sym c b). ring.
Qed.

Lemma det3_swap12 : forall a b c, det3 a b c = det3 b a c.
Proof. intros a b c. unfold det3. rewrite (ip_sym b a), (ip_sym c a), (ip_sym c b). ring. Qed.

Lemma det3_swap13 : forall a b c, det3 a b c = det3 c b a.
Proof. intros a b c. unfold det3. rewrite (ip_sym b a), (ip_sym c a), (ip_sym c b). ring. Qed.

Lemma ip_zero_of_norms : forall a b, ip a a = 0 -> ip b b = 0 -> ip a b = 0.
Proof.
  intros a b Ha Hb. apply square_nonpos_zero.
  pose proof (gram2_nonneg a b) as H. unfold det2 in H.
  rewrite Ha, Hb, (ip_sym b a) in H. refine (nonneg_eq _ _ _ H). ring.
Qed.

(** The 3x3 Gram determinant is nonnegative. *)
Lemma gram3_nonneg : forall a b c, 0 <= det3 a b c.
Proof.
  intros a b c.
  destruct (Rle_lt_or_eq_dec 0 (ip a a) (ip_pos a)) as [Ha | Ha]; [exact (det3_core a b c Ha) |].
  destruct (Rle_lt_or_eq_dec 0 (ip b b) (ip_pos b)) as [Hb | Hb].
  { rewrite det3_swap12. exact (det3_core b a c Hb). }
  destruct (Rle_lt_or_eq_dec 0 (ip c c) (ip_pos c)) as [Hc | Hc].
  { rewrite det3_swap13. exact (det3_core c b a Hc). }
  symmetry in Ha, Hb, Hc.
  pose proof (ip_zero_of_norms a b Ha Hb) as Eab.
  pose proof (ip_zero_of_norms a c Ha Hc) as Eac.
  pose proof (ip_zero_of_norms b c Hb Hc) as Ebc.
  unfold det3. rewrite (ip_sym b a), (ip_sym c a), (ip_sym c b), Eab, Eac, Ebc, Ha, Hb, Hc.
  right. ring.
Qed.

(** * Replaying a certificate: sign lemmas and the bridges between a statement and its facts. *)

#[export] Hint Rewrite ip_add_l ip_add_r ip_scal_l ip_scal_r : ip_db.

Lemma int_nonneg : forall p : Z, (0 <=? p)%Z = true -> 0 <= IZR p.
Proof. intros p H. apply IZR_le, Z.leb_le, H. Qed.

Lemma int_pos : forall p : Z, (0 <? p)%Z = true -> 0 < IZR p.
Proof. intros p H. apply IZR_lt, Z.ltb_lt, H. Qed.

Lemma rat_nonneg : forall p q : Z, (0 <=? p)%Z = true -> (0 <? q)%Z = true -> 0 <= IZR p / IZR q.
Proof.
  intros p q Hp Hq. apply Rmult_le_pos; [exact (int_nonneg p Hp) |].
  left. apply Rinv_0_lt_compat, (int_pos q Hq).
Qed.

Lemma rat_pos : forall p q : Z, (0 <? p)%Z = true -> (0 <? q)%Z = true -> 0 < IZR p / IZR q.
Proof.
  intros p q Hp Hq. apply Rmult_lt_0_compat; [exact (int_pos p Hp) |].
  apply Rinv_0_lt_compat, (int_pos q Hq).
Qed.

Lemma add_pos_nonneg : forall a b, 0 < a -> 0 <= b -> 0 < a + b.
Proof. intros a b Ha Hb. lra. Qed.

Lemma sum_ge : forall a b, 0 <= a -> b = 0 -> 0 <= a + b.
Proof. intros a b Ha Hb. rewrite Hb, Rplus_0_r. exact Ha. Qed.

Lemma sum_gt : forall a b, 0 < a -> b = 0 -> 0 < a + b.
Proof. intros a b Ha Hb. rewrite Hb, Rplus_0_r. exact Ha. Qed.

Lemma sum_eq : forall a b, a = 0 -> b = 0 -> a + b = 0.
Proof. intros a b Ha Hb. rewrite Ha, Hb. ring. Qed.

Lemma ge_of_eq0 : forall a, a = 0 -> 0 <= a.
Proof. intros a H. rewrite H. right. reflexivity. Qed.

Lemma lin0 : forall q p, p = 0 -> q * p = 0.
Proof. intros q p H. rewrite H. ring. Qed.

Lemma replay_ge : forall m c s, 0 < m -> m * c = s -> 0 <= s -> 0 <= c.
Proof.
  intros m c s Hm E Hs. rewrite <- E in Hs.
  exact (prod_pos_nonneg_r m c Hm Hs).
Qed.

Lemma replay_gt : forall m c s, 0 < m -> m * c = s -> 0 < s -> 0 < c.
Proof.
  intros m c s Hm E Hs. rewrite <- E in Hs.
  destruct (Rle_or_lt c 0) as [Hc | Hc]; [| exact Hc].
  exfalso. apply (Rlt_irrefl 0). apply (Rlt_le_trans 0 (m * c) 0 Hs).
  rewrite <- (Rmult_0_r m). apply Rmult_le_compat_l; [left; exact Hm | exact Hc].
Qed.

Lemma replay_eq : forall m c s, 0 < m -> m * c = s -> s = 0 -> c = 0.
Proof.
  intros m c s Hm E Hs. rewrite Hs in E.
  destruct (Rmult_integral m c E) as [H | H]; [| exact H].
  exfalso. rewrite H in Hm. exact (Rlt_irrefl 0 Hm).
Qed.

(** From a hypothesis as written to its fact [p (kind) 0], [f > 0] clearing denominators. *)
Lemma fact_le : forall a b f p, 0 < f -> f * (b - a) = p -> a <= b -> 0 <= p.
Proof.
  intros a b f p Hf E H. rewrite <- E. apply Rmult_le_pos; [left; exact Hf | lra].
Qed.

Lemma fact_lt : forall a b f p, 0 < f -> f * (b - a) = p -> a < b -> 0 < p.
Proof. intros a b f p Hf E H. rewrite <- E. apply Rmult_lt_0_compat; [exact Hf | lra]. Qed.

Lemma fact_ge : forall a b f p, 0 < f -> f * (a - b) = p -> a >= b -> 0 <= p.
Proof.
  intros a b f p Hf E H. rewrite <- E. apply Rmult_le_pos; [left; exact Hf | lra].
Qed.

Lemma fact_gt : forall a b f p, 0 < f -> f * (a - b) = p -> a > b -> 0 < p.
Proof. intros a b f p Hf E H. rewrite <- E. apply Rmult_lt_0_compat; [exact Hf | lra]. Qed.

Lemma fact_eq : forall a b f p, 0 < f -> f * (a - b) = p -> a = b -> p = 0.
Proof. intros a b f p Hf E H. rewrite <- E, H. ring. Qed.

(** From the claim's fact back to the claim as written. *)
Lemma claim_le : forall a b f p, 0 < f -> f * (b - a) = p -> 0 <= p -> a <= b.
Proof.
  intros a b f p Hf E H. rewrite <- E in H.
  pose proof (prod_pos_nonneg_r f (b - a) Hf H). lra.
Qed.

Lemma claim_lt : forall a b f p, 0 < f -> f * (b - a) = p -> 0 < p -> a < b.
Proof.
  intros a b f p Hf E H. pose proof (replay_gt f (b - a) p Hf E H). lra.
Qed.

Lemma claim_ge : forall a b f p, 0 < f -> f * (a - b) = p -> 0 <= p -> a >= b.
Proof.
  intros a b f p Hf E H. rewrite <- E in H.
  pose proof (prod_pos_nonneg_r f (a - b) Hf H). lra.
Qed.

Lemma claim_gt : forall a b f p, 0 < f -> f * (a - b) = p -> 0 < p -> a > b.
Proof.
  intros a b f p Hf E H. pose proof (replay_gt f (a - b) p Hf E H). lra.
Qed.

Lemma claim_eq : forall a b f p, 0 < f -> f * (a - b) = p -> p = 0 -> a = b.
Proof.
  intros a b f p Hf E H. pose proof (replay_eq f (a - b) p Hf E H). lra.
Qed.

(** Denominators: [b^(n+1) = p > 0] gives [b <> 0]. *)
Lemma nz_of_pow_pos : forall b n p, b ^ S n = p -> 0 < p -> b <> 0.
Proof.
  intros b n p E H Z. rewrite Z, pow_ne_zero in E by discriminate.
  rewrite <- E in H. exact (Rlt_irrefl 0 H).
Qed.

(** A factor of a positive quantity is nonzero: [0 < c] and [c = d * r] give [d <> 0]. *)
Lemma nz_of_factor : forall c d r, 0 < c -> c = d * r -> d <> 0.
Proof.
  intros c d r H E Z. rewrite Z, Rmult_0_l in E. rewrite E in H. exact (Rlt_irrefl 0 H).
Qed.

(** Refutation form: a claim [0 <= g] ([0 < g]) holds when its negation [0 < n]
    ([0 <= n]), [n = - g], proves [0 < 0]: the order on R is decidable. *)
Lemma by_contra_ge : forall g n, n = - g -> (0 < n -> 0 < 0) -> 0 <= g.
Proof.
  intros g n E H. destruct (Rle_lt_dec 0 g) as [Hg | Hg]; [exact Hg |].
  exfalso. apply (Rlt_irrefl 0), H. rewrite E. exact (Ropp_0_gt_lt_contravar g Hg).
Qed.

Lemma by_contra_gt : forall g n, n = - g -> (0 <= n -> 0 < 0) -> 0 < g.
Proof.
  intros g n E H. destruct (Rlt_le_dec 0 g) as [Hg | Hg]; [exact Hg |].
  exfalso. apply (Rlt_irrefl 0), H. pose proof (Ropp_le_contravar 0 g Hg) as N.
  rewrite Ropp_0 in N. rewrite E. exact N.
Qed.

(** Antisymmetry: [g = 0] from [0 <= g] and [0 <= n], [n = - g] (an equality proved by
    its two inequalities). *)
Lemma by_antisym : forall g n, n = - g -> 0 <= g -> 0 <= n -> g = 0.
Proof.
  intros g n E G N. rewrite E in N. apply Rle_antisym; [| exact G].
  apply Ropp_le_cancel. rewrite Ropp_0. exact N.
Qed.

(** Case splits: the cases are exhaustive by trichotomy of the reals. *)
Lemma trichotomy : forall x, x > 0 \/ x = 0 \/ x < 0.
Proof. intros x. destruct (Rtotal_order x 0) as [H | [H | H]]; auto. Qed.

Lemma dichotomy : forall x, x >= 0 \/ x < 0.
Proof. intros x. destruct (Rtotal_order x 0) as [H | [H | H]]; [right | left | left]; lra. Qed.

Lemma nz_mul_l : forall x y, x * y <> 0 -> x <> 0.
Proof. intros x y H E. apply H. rewrite E. ring. Qed.

Lemma nz_mul_r : forall x y, x * y <> 0 -> y <> 0.
Proof. intros x y H E. apply H. rewrite E. ring. Qed.

(** The side conditions [field] leaves: each denominator is nonzero by a hypothesis. *)
Ltac nz_solve :=
  repeat match goal with
  | |- _ /\ _ => split
  | H : ?x <> 0 |- ?x <> 0 => exact H
  | H : 0 < ?x |- ?x <> 0 => exact (Rgt_not_eq x 0 H)
  | H : ?x * _ <> 0 |- ?x <> 0 => exact (nz_mul_l _ _ H)
  | H : _ * ?y <> 0 |- ?y <> 0 => exact (nz_mul_r _ _ H)
  | |- ?x * ?y <> 0 => apply Rmult_integral_contrapositive_currified
  | |- ?x ^ _ <> 0 => apply pow_nonzero
  | H : ?y <> 0 |- ?x <> 0 => replace x with y by ring; exact H
  | |- _ <> 0 => discrR
  end.

(** * Finite sums over integer ranges (issue 31): [zsum lo hi f] is the sum of [f (IZR j)]
    over the integers lo <= j <= hi, 0 when hi < lo; a filter is a 0/1 indicator factor of
    the summand. Every rule the kernel uses on sums is a lemma here, proved by induction. *)
Fixpoint nsum (k : nat) (lo : Z) (f : R -> R) : R :=
  match k with O => 0 | S k' => f (IZR lo) + nsum k' (lo + 1)%Z f end.

Definition zsum (lo hi : Z) (f : R -> R) : R := nsum (Z.to_nat (hi - lo + 1)) lo f.

Definition ind_ge (p : R) : R := if Rle_dec 0 p then 1 else 0.
Definition ind_gt (p : R) : R := if Rlt_dec 0 p then 1 else 0.
Definition ind_eq (p : R) : R := if Req_EM_T p 0 then 1 else 0.

Lemma nsum_app : forall a b lo f,
  nsum (a + b) lo f = nsum a lo f + nsum b (lo + Z.of_nat a)%Z f.
Proof.
  induction a as [| a IH]; intros b lo f; simpl.
  - rewrite Z.add_0_r. ring.
  - rewrite IH. replace (lo + 1 + Z.of_nat a)%Z with (lo + Z.pos (Pos.of_succ_nat a))%Z
      by lia. ring.
Qed.

Lemma zsum_empty : forall lo hi f, (hi < lo)%Z -> zsum lo hi f = 0.
Proof.
  intros lo hi f H. unfold zsum. replace (Z.to_nat (hi - lo + 1)) with O by lia.
  reflexivity.
Qed.

Lemma zsum_split : forall lo m hi f, (lo - 1 <= m)%Z -> (m <= hi)%Z ->
  zsum lo hi f = zsum lo m f + zsum (m + 1) hi f.
Proof.
  intros lo m hi f H1 H2. unfold zsum.
  replace (Z.to_nat (hi - lo + 1))
    with (Z.to_nat (m - lo + 1) + Z.to_nat (hi - (m + 1) + 1))%nat by lia.
  rewrite nsum_app. replace (lo + Z.of_nat (Z.to_nat (m - lo + 1)))%Z with (m + 1)%Z
    by lia.
  reflexivity.
Qed.

Lemma zsum_last : forall lo hi f v, (lo <= hi)%Z -> IZR hi = v ->
  zsum lo hi f = zsum lo (hi - 1) f + f v.
Proof.
  intros lo hi f v H E. rewrite (zsum_split lo (hi - 1) hi f) by lia.
  unfold zsum at 2. replace (Z.to_nat (hi - (hi - 1 + 1) + 1)) with 1%nat by lia.
  simpl. replace (hi - 1 + 1)%Z with hi by lia. rewrite E. ring.
Qed.

(** A shift of the range (the kernel's `shift` by c): j -> j + c maps lo..hi onto
    lo + c..hi + c, the summand read at x - c; by induction on the length of the range. *)
Lemma nsum_shift : forall k lo c f,
  nsum k lo f = nsum k (lo + c)%Z (fun x => f (x - IZR c)).
Proof.
  induction k as [| k IH]; intros lo c f; simpl; [reflexivity |].
  rewrite (IH (lo + 1)%Z c f). replace (IZR (lo + c) - IZR c) with (IZR lo)
    by (rewrite plus_IZR; ring).
  replace (lo + c + 1)%Z with (lo + 1 + c)%Z by lia. reflexivity.
Qed.

Lemma zsum_shift : forall lo hi c f,
  zsum lo hi f = zsum (lo + c) (hi + c) (fun x => f (x - IZR c)).
Proof.
  intros lo hi c f. unfold zsum.
  replace (hi + c - (lo + c) + 1)%Z with (hi - lo + 1)%Z by lia. apply nsum_shift.
Qed.

Lemma zsum_bounds : forall lo hi lo' hi' f, lo = lo' -> hi = hi' ->
  zsum lo hi f = zsum lo' hi' f.
Proof. intros lo hi lo' hi' f E F. rewrite E, F. reflexivity. Qed.

Lemma nsum_count : forall k lo, nsum k lo (fun _ => 1) = INR k.
Proof.
  induction k as [| k IH]; intros lo; simpl; [reflexivity |].
  rewrite IH. destruct k; simpl; ring.
Qed.

Lemma zsum_count : forall lo hi, (lo - 1 <= hi)%Z ->
  zsum lo hi (fun _ => 1) = IZR (hi - lo + 1).
Proof.
  intros lo hi H. unfold zsum. rewrite nsum_count, INR_IZR_INZ, Z2Nat.id by lia.
  reflexivity.
Qed.

(** Bounds of sums are integers: their equalities by linear integer arithmetic. *)
Ltac zbounds := lia.

(** A condition proved over the reals, read over the integers. *)
Lemma zle_of : forall a b : Z, 0 <= IZR b - IZR a -> (a <= b)%Z.
Proof. intros a b H. apply le_IZR. lra. Qed.

Lemma zlt_of : forall a b : Z, 0 <= IZR b - IZR a - 1 -> (a < b)%Z.
Proof. intros a b H. apply lt_IZR. lra. Qed.

Lemma pos_eq : forall x y, x = y -> 0 < x -> 0 < y.
Proof. intros x y E H. rewrite <- E. exact H. Qed.

Lemma zero_eq : forall x y, x = y -> x = 0 -> y = 0.
Proof. intros x y E H. rewrite <- E. exact H. Qed.

Lemma ind_ge_in : forall p, 0 <= p -> ind_ge p = 1.
Proof. intros p H. unfold ind_ge. destruct (Rle_dec 0 p); [reflexivity | contradiction]. Qed.
Lemma ind_ge_out : forall p, 0 < - p -> ind_ge p = 0.
Proof. intros p H. unfold ind_ge. destruct (Rle_dec 0 p); [lra | reflexivity]. Qed.
Lemma ind_gt_in : forall p, 0 < p -> ind_gt p = 1.
Proof. intros p H. unfold ind_gt. destruct (Rlt_dec 0 p); [reflexivity | contradiction]. Qed.
Lemma ind_gt_out : forall p, 0 <= - p -> ind_gt p = 0.
Proof. intros p H. unfold ind_gt. destruct (Rlt_dec 0 p); [lra | reflexivity]. Qed.
Lemma ind_eq_in : forall p, p = 0 -> ind_eq p = 1.
Proof. intros p H. unfold ind_eq. destruct (Req_EM_T p 0); [reflexivity | contradiction]. Qed.
Lemma ind_eq_out_pos : forall p, 0 < p -> ind_eq p = 0.
Proof. intros p H. unfold ind_eq. destruct (Req_EM_T p 0); [lra | reflexivity]. Qed.
Lemma ind_eq_out_neg : forall p, 0 < - p -> ind_eq p = 0.
Proof. intros p H. unfold ind_eq. destruct (Req_EM_T p 0); [lra | reflexivity]. Qed.
(** A filter scaled by a constant keeps its indicator (the kernel scales each filter of a
    sum to lead with 1: a shifted filter on the index itself is a multiple of the written one,
    `verify.coq.sums.ranges`). *)
Lemma ind_ge_scale : forall p q k, 0 < k -> q = k * p -> ind_ge p = ind_ge q.
Proof.
  intros p q k H E. subst q. unfold ind_ge.
  destruct (Rle_dec 0 p) as [A | A]; destruct (Rle_dec 0 (k * p)) as [B | B]; try reflexivity.
  - exfalso. apply B. apply Rmult_le_pos; [apply Rlt_le; exact H | exact A].
  - exfalso. apply A. apply (Rmult_le_reg_l k); [exact H | rewrite Rmult_0_r; exact B].
Qed.
Lemma ind_gt_scale : forall p q k, 0 < k -> q = k * p -> ind_gt p = ind_gt q.
Proof.
  intros p q k H E. subst q. unfold ind_gt.
  destruct (Rlt_dec 0 p) as [A | A]; destruct (Rlt_dec 0 (k * p)) as [B | B]; try reflexivity.
  - exfalso. apply B. apply Rmult_lt_0_compat; [exact H | exact A].
  - exfalso. apply A. apply (Rmult_lt_reg_l k); [exact H | rewrite Rmult_0_r; exact B].
Qed.
Lemma ind_eq_scale : forall p q k, 0 < k -> (q = k * p \/ q = - k * p) -> ind_eq p = ind_eq q.
Proof.
  intros p q k H E. unfold ind_eq.
  destruct (Req_EM_T p 0) as [A | A]; destruct (Req_EM_T q 0) as [B | B]; try reflexivity.
  - exfalso. apply B. destruct E as [E | E]; rewrite E, A; ring.
  - exfalso. apply A. destruct E as [E | E]; rewrite E in B.
    + destruct (Rmult_integral _ _ B) as [C | C]; [lra | exact C].
    + destruct (Rmult_integral _ _ B) as [C | C]; [lra | exact C].
Qed.

(** * The term-wise rule (a used claim summed over a set): each member's term is >= 0
    (= 0) where the set's filters hold, so the sum is; a strict claim gives only >= 0 (the
    set may be empty). Then the sum is split by linearity into the kernel's canonical sums. *)
Lemma nsum_ge : forall k lo f,
  (forall j, (lo <= j < lo + Z.of_nat k)%Z -> 0 <= f (IZR j)) -> 0 <= nsum k lo f.
Proof.
  induction k as [| k IH]; intros lo f H; simpl; [apply Rle_refl |].
  apply Rplus_le_le_0_compat; [apply H; lia |].
  apply IH. intros j Hj. apply H. lia.
Qed.

Lemma zsum_ge : forall lo hi f,
  (forall j, (lo <= j <= hi)%Z -> 0 <= f (IZR j)) -> 0 <= zsum lo hi f.
Proof. intros lo hi f H. unfold zsum. apply nsum_ge. intros j Hj. apply H. lia. Qed.

Lemma nsum_eq0 : forall k lo f,
  (forall j, (lo <= j < lo + Z.of_nat k)%Z -> f (IZR j) = 0) -> nsum k lo f = 0.
Proof.
  induction k as [| k IH]; intros lo f H; simpl; [reflexivity |].
  rewrite (H lo) by lia. rewrite IH; [ring |]. intros j Hj. apply H. lia.
Qed.

Lemma zsum_eq0 : forall lo hi f,
  (forall j, (lo <= j <= hi)%Z -> f (IZR j) = 0) -> zsum lo hi f = 0.
Proof. intros lo hi f H. unfold zsum. apply nsum_eq0. intros j Hj. apply H. lia. Qed.

(** A filter as a 0/1 factor: the term is >= 0 (= 0) where the filter holds, 0 elsewhere. *)
Lemma ind_ge_nonneg : forall p g, (0 <= p -> 0 <= g) -> 0 <= ind_ge p * g.
Proof.
  intros p g H. unfold ind_ge. destruct (Rle_dec 0 p) as [Hp | Hp].
  - rewrite Rmult_1_l. exact (H Hp).
  - rewrite Rmult_0_l. apply Rle_refl.
Qed.
Lemma ind_gt_nonneg : forall p g, (0 < p -> 0 <= g) -> 0 <= ind_gt p * g.
Proof.
  intros p g H. unfold ind_gt. destruct (Rlt_dec 0 p) as [Hp | Hp].
  - rewrite Rmult_1_l. exact (H Hp).
  - rewrite Rmult_0_l. apply Rle_refl.
Qed.
Lemma ind_eq_nonneg : forall p g, (p = 0 -> 0 <= g) -> 0 <= ind_eq p * g.
Proof.
  intros p g H. unfold ind_eq. destruct (Req_EM_T p 0) as [Hp | Hp].
  - rewrite Rmult_1_l. exact (H Hp).
  - rewrite Rmult_0_l. apply Rle_refl.
Qed.
Lemma ind_ge_zero : forall p g, (0 <= p -> g = 0) -> ind_ge p * g = 0.
Proof.
  intros p g H. unfold ind_ge. destruct (Rle_dec 0 p) as [Hp | Hp]; [rewrite (H Hp) |]; ring.
Qed.
Lemma ind_gt_zero : forall p g, (0 < p -> g = 0) -> ind_gt p * g = 0.
Proof.
  intros p g H. unfold ind_gt. destruct (Rlt_dec 0 p) as [Hp | Hp]; [rewrite (H Hp) |]; ring.
Qed.
Lemma ind_eq_zero : forall p g, (p = 0 -> g = 0) -> ind_eq p * g = 0.
Proof.
  intros p g H. unfold ind_eq. destruct (Req_EM_T p 0) as [Hp | Hp]; [rewrite (H Hp) |]; ring.
Qed.

(** Linearity, one canonical sum at a time: [f = c g + h] pointwise splits [zsum f]. *)
Lemma nsum_combine : forall k lo f c g h, (forall x, f x = c * g x + h x) ->
  nsum k lo f = c * nsum k lo g + nsum k lo h.
Proof.
  induction k as [| k IH]; intros lo f c g h E; simpl; [ring |].
  rewrite (IH (lo + 1)%Z f c g h E), (E (IZR lo)). ring.
Qed.

Lemma zsum_combine : forall lo hi f c g h rest, (forall x, f x = c * g x + h x) ->
  zsum lo hi h = rest -> zsum lo hi f = c * zsum lo hi g + rest.
Proof.
  intros lo hi f c g h rest E R. rewrite <- R. unfold zsum. apply nsum_combine. exact E.
Qed.

Lemma nsum_zero : forall k lo, nsum k lo (fun _ => 0) = 0.
Proof. induction k as [| k IH]; intros lo; simpl; [reflexivity | rewrite IH; ring]. Qed.

Lemma zsum_zero : forall lo hi, zsum lo hi (fun _ => 0) = 0.
Proof. intros lo hi. unfold zsum. apply nsum_zero. Qed.

(** A double sum in the other order (the kernel's `swap`): both are the sum over the product
    of the two ranges, by induction on the outer one; the summands are brought to one function
    of both indices pointwise ([zsum_factor]: a factor free of the inner index goes inside). *)
Lemma nsum_ext : forall k lo f g, (forall x, f x = g x) -> nsum k lo f = nsum k lo g.
Proof.
  induction k as [| k IH]; intros lo f g E; simpl; [reflexivity |].
  rewrite E, (IH (lo + 1)%Z f g E). reflexivity.
Qed.

Lemma nsum_add : forall k lo f g,
  nsum k lo (fun x => f x + g x) = nsum k lo f + nsum k lo g.
Proof. induction k as [| k IH]; intros lo f g; simpl; [ring | rewrite IH; ring]. Qed.

Lemma nsum_swap : forall a lo b lo' (h : R -> R -> R),
  nsum a lo (fun x => nsum b lo' (fun y => h x y)) =
  nsum b lo' (fun y => nsum a lo (fun x => h x y)).
Proof.
  induction a as [| a IH]; intros lo b lo' h; simpl.
  - symmetry. apply nsum_zero.
  - rewrite IH, <- nsum_add. reflexivity.
Qed.

Lemma zsum_swap : forall lo hi lo' hi' (h : R -> R -> R) f g,
  (forall x, f x = zsum lo' hi' (fun y => h x y)) ->
  (forall y, g y = zsum lo hi (fun x => h x y)) -> zsum lo hi f = zsum lo' hi' g.
Proof.
  intros lo hi lo' hi' h f g F G. unfold zsum in *.
  rewrite (nsum_ext _ _ f _ F), (nsum_ext _ _ g _ G). apply nsum_swap.
Qed.

Lemma nsum_factor : forall k lo c f, c * nsum k lo f = nsum k lo (fun y => c * f y).
Proof. induction k as [| k IH]; intros lo c f; simpl; [ring | rewrite <- IH; ring]. Qed.

Lemma zsum_factor : forall lo hi c f g, (forall y, c * f y = g y) ->
  c * zsum lo hi f = zsum lo hi g.
Proof. intros lo hi c f g E. unfold zsum. rewrite nsum_factor. apply nsum_ext. exact E. Qed.

(** A rule inside a sum's body (the kernel's `within`, verify.coq.sums.within): summands
    equal at every point give equal sums (extensionality of the fold). The rule's conditions
    mention no index, so its identity holds at every point, not only at the members. *)
Lemma zsum_ext : forall lo hi f g, (forall x, f x = g x) -> zsum lo hi f = zsum lo hi g.
Proof. intros lo hi f g E. unfold zsum. apply nsum_ext. exact E. Qed.

(** An indicator is 0 or 1: two filters a congruence makes one leave its square, which
    [ring] reads as such; a case on the indicator's value closes it (`verify.coq.sums.within`). *)
Lemma ind_ge_01 : forall p, ind_ge p = 0 \/ ind_ge p = 1.
Proof. intros p. unfold ind_ge. destruct (Rle_dec 0 p); [right | left]; reflexivity. Qed.
Lemma ind_gt_01 : forall p, ind_gt p = 0 \/ ind_gt p = 1.
Proof. intros p. unfold ind_gt. destruct (Rlt_dec 0 p); [right | left]; reflexivity. Qed.
Lemma ind_eq_01 : forall p, ind_eq p = 0 \/ ind_eq p = 1.
Proof. intros p. unfold ind_eq. destruct (Req_EM_T p 0); [right | left]; reflexivity. Qed.

Lemma claim_eq_rev : forall a b f p, 0 < f -> f * (b - a) = p -> p = 0 -> a = b.
Proof. intros a b f p Hf E H. symmetry. exact (claim_eq b a f p Hf E H). Qed.

Lemma fact_eq_rev : forall a b f p, 0 < f -> f * (b - a) = p -> a = b -> p = 0.
Proof. intros a b f p Hf E H. exact (fact_eq b a f p Hf E (eq_sym H)). Qed.

(** Inner products in one orientation wherever both occur (the kernel sorts each pair by
    name; a term printed at another index may read the pair the other way). *)
Ltac ip_orient := repeat match goal with
  | |- context [ip ?a ?b] => match goal with
      | |- context [ip b a] => tryif constr_eq a b then fail else rewrite (ip_sym a b)
      end
  end.
Ltac ip_canon := try unfold det2, det3; autorewrite with ip_db; ip_orient.

(** * Sums of vectors, as written inside an inner product (verify.coq.sums.vectorsums):
    [vzsum lo hi f] adds [f (IZR j)] for lo <= j <= hi with [vadd], the zero vector
    [vscal 0 _] when the range is empty; a filter is a 0/1 factor [vscal (ind_ge p)].
    An inner product reads it term by term, proved by induction on the length of the range. *)
Fixpoint nvsum (k : nat) (lo : Z) (f : R -> V) : V :=
  match k with O => vscal 0 (f (IZR lo)) | S k' => vadd (f (IZR lo)) (nvsum k' (lo + 1)%Z f) end.

Definition vzsum (lo hi : Z) (f : R -> V) : V := nvsum (Z.to_nat (hi - lo + 1)) lo f.

Lemma nvsum_ip : forall k lo f w, ip (nvsum k lo f) w = nsum k lo (fun x => ip (f x) w).
Proof.
  induction k as [| k IH]; intros lo f w; simpl.
  - rewrite ip_scal_l. ring.
  - rewrite ip_add_l, IH. reflexivity.
Qed.

Lemma ip_vzsum_l : forall lo hi f w, ip (vzsum lo hi f) w = zsum lo hi (fun x => ip (f x) w).
Proof. intros lo hi f w. unfold vzsum, zsum. apply nvsum_ip. Qed.
"""
