/** The rule syntax check while a rule is typed: main's parser, asked once the typing pauses. */
import { useEffect, useState } from 'react';
import type { RuleCheckView } from '../../../shared/contract';
import { useCove } from '../../store';

const PAUSE_MS = 150;

/** undefined while the text is empty or the answer for it is on its way. */
export function useRuleCheck(text: string): RuleCheckView | undefined {
  const checkRule = useCove((state) => state.checkRule);
  const [answer, setAnswer] = useState<{ text: string; check: RuleCheckView } | undefined>(undefined);
  useEffect(() => {
    if (text.trim() === '') return;
    let current = true;
    const timer = setTimeout(() => {
      void checkRule(text).then((check) => {
        if (current && check) setAnswer({ text, check });
      });
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, checkRule]);
  return answer?.text === text ? answer.check : undefined;
}
