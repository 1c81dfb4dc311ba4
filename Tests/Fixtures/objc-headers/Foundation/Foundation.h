// The parts of Foundation's interface that OfferKit's Objective-C snippets use, declared as Apple
// documents them, so clang can check the snippets' syntax, selectors and types off Apple platforms.
#pragma once
typedef signed char BOOL;
#define YES ((BOOL)1)
#define NO ((BOOL)0)
#define nil ((id)0)
typedef unsigned long NSUInteger;
__attribute__((objc_root_class))
@interface NSObject
+ (instancetype)alloc;
- (instancetype)init;
@end
@interface NSString : NSObject
@property(readonly) NSUInteger length;
- (BOOL)isEqualToString:(NSString *)aString;
@end
@interface NSNumber : NSObject
@end
@interface NSUUID : NSObject
- (instancetype)initWithUUIDString:(NSString *)string;
@end
@interface NSDictionary : NSObject
- (id)objectForKeyedSubscript:(id)key;
@end
